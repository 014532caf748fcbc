#include "analysis/collective_calls.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

namespace cuprobe {
namespace {

bool is_communication(const std::vector<KernelClass>& classes, std::size_t i) {
  return i < classes.size() && classes[i].category == Category::kCommunication;
}

struct Interval {
  TimeNs lo = 0, hi = 0;
  TimeNs covered_until = 0;
  TimeNs covered = 0;
};

// The gaps between the latest end of the calls so far and the next call's start.
std::vector<Interval> arrival_intervals(const std::vector<CollectiveCall>& calls) {
  std::vector<Interval> out;
  TimeNs latest_end = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (i > 0 && calls[i].start > latest_end) out.push_back({latest_end, calls[i].start, latest_end, 0});
    latest_end = i == 0 ? calls[i].end : std::max(latest_end, calls[i].end);
  }
  return out;
}

}  // namespace

void collect_collective_calls(const Profile& profile, const std::vector<KernelClass>& classes, RankSummary& summary) {
  // A kernel that does not name its communicator takes its operator's (record_param_comms, the same External id).
  std::unordered_map<std::int64_t, StringId> by_operator;
  for (const CpuRange& r : profile.cpu) {
    if (r.communicator != kNoString && r.external_id >= 0) by_operator.emplace(r.external_id, r.communicator);
  }
  auto communicator_of = [&](const GpuActivity& a) {
    if (a.communicator != kNoString || a.external_id < 0) return a.communicator;
    auto it = by_operator.find(a.external_id);
    return it == by_operator.end() ? kNoString : it->second;
  };
  std::map<std::int64_t, int> stream_order;  // stream -> order of its first communication kernel
  std::map<std::tuple<std::string, int, StringId>, std::uint32_t> key_index;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (!is_communication(classes, i)) continue;
    const GpuActivity& a = profile.gpu[i];
    auto [order, fresh_stream] = stream_order.try_emplace(a.stream, static_cast<int>(stream_order.size()));
    (void)fresh_stream;
    std::string name(profile.name_of(a.name));
    StringId communicator = communicator_of(a);
    auto [it, fresh] =
        key_index.try_emplace({name, order->second, communicator}, static_cast<std::uint32_t>(summary.keys.size()));
    if (fresh) summary.keys.push_back({name, order->second, std::string(profile.name_of(communicator))});
    summary.calls.push_back({it->second, a.start, a.end, i});
  }
}

void summarize_before_arrivals(const Profile& profile, const std::vector<KernelClass>& classes, RankSummary& summary) {
  std::vector<Interval> gaps = arrival_intervals(summary.calls);
  BeforeArrival& b = summary.before;
  if (gaps.empty()) return;
  std::map<StringId, TimeNs> by_name;
  TimeNs copies = 0;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (is_communication(classes, i)) continue;
    const GpuActivity& a = profile.gpu[i];
    auto first =
        std::upper_bound(gaps.begin(), gaps.end(), a.start, [](TimeNs t, const Interval& g) { return t < g.hi; });
    for (auto g = first; g != gaps.end() && g->lo < a.end; ++g) {
      TimeNs s = std::max(a.start, g->lo), e = std::min(a.end, g->hi);
      if (e <= s) continue;
      if (a.kind == GpuActivityKind::kMemcpy || a.kind == GpuActivityKind::kMemset)
        copies += e - s;
      else
        by_name[a.name] += e - s;
      // Starts arrive in order, so a clipped segment never starts before the last one did: the union grows at the end.
      if (s >= g->covered_until) {
        g->covered += e - s;
        g->covered_until = e;
      } else if (e > g->covered_until) {
        g->covered += e - g->covered_until;
        g->covered_until = e;
      }
    }
  }
  TimeNs span = 0, covered = 0;
  for (const Interval& g : gaps) {
    span += g.hi - g.lo;
    covered += g.covered;
  }
  b.span_ms = static_cast<double>(span) / 1e6;
  b.idle_ms = static_cast<double>(span - covered) / 1e6;
  b.copy_ms = static_cast<double>(copies) / 1e6;
  for (const auto& [name, ns] : by_name)
    b.kernel_ms.emplace_back(std::string(profile.name_of(name)), static_cast<double>(ns) / 1e6);
  std::stable_sort(b.kernel_ms.begin(), b.kernel_ms.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
}

}  // namespace cuprobe
