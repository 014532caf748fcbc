#include "analysis/op_calls.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/correlation_index.h"
#include "analysis/launch_context.h"
#include "analysis/track_keys.h"

namespace cuprobe {

std::string_view op_base_name(std::string_view op) {
  std::size_t at = op.rfind("::");
  return at == std::string_view::npos ? op : op.substr(at + 2);
}

OperatorCalls::OperatorCalls(const Profile& profile) : profile_(&profile) {
  std::vector<std::uint32_t> order;
  for (std::size_t i = 0; i < profile.cpu.size(); ++i) {
    if (profile.cpu[i].kind == CpuRangeKind::kOperator) order.push_back(static_cast<std::uint32_t>(i));
  }
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const CpuRange& x = profile.cpu[a];
    const CpuRange& y = profile.cpu[b];
    return x.start != y.start ? x.start < y.start : x.end > y.end;
  });
  calls_.reserve(order.size());
  std::unordered_map<ThreadKey, std::vector<const CpuRange*>, ThreadKeyHash> open;
  for (std::uint32_t i : order) {
    const CpuRange& r = profile.cpu[i];
    auto& stack = open[ThreadKey{r.pid, r.tid}];
    while (!stack.empty() && stack.back()->end < r.end) stack.pop_back();
    calls_.push_back(Stored{i, static_cast<std::int32_t>(stack.size()), 0, 0});
    stack.push_back(&r);
  }
  order = {};
  // GPU activities by the correlation of their launch.
  std::vector<std::int64_t> ids;
  for (const auto& a : profile.gpu) {
    if (a.correlation >= 0) ids.push_back(a.correlation);
  }
  const CorrelationIndex wanted(std::move(ids));
  // The activities of each slot, in one array (slot s's from first[s] to first[s + 1]).
  std::vector<std::uint32_t> first(wanted.size() + 1, 0), by_slot;
  for (const auto& a : profile.gpu) {
    std::int32_t slot = wanted.slot(a.correlation);
    if (slot >= 0) ++first[static_cast<std::size_t>(slot) + 1];
  }
  for (std::size_t s = 1; s < first.size(); ++s) first[s] += first[s - 1];
  by_slot.resize(first.back());
  std::vector<std::uint32_t> filled(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    std::int32_t slot = wanted.slot(profile.gpu[i].correlation);
    if (slot >= 0) by_slot[filled[static_cast<std::size_t>(slot)]++] = static_cast<std::uint32_t>(i);
  }
  // A call's activities are those launched while it was on its thread's stack of enclosing ranges: a run of its
  // thread's launches, one after another. Each call keeps where its run begins and ends in its thread's list.
  std::unordered_map<ThreadKey, std::uint32_t, ThreadKeyHash> list_of_thread;
  std::vector<std::vector<std::uint32_t>> lists;
  std::vector<char> seen(wanted.size(), 0);
  std::vector<std::pair<const CpuRange*, std::uint32_t>> known;  // the last launch's operators and their calls
  for_each_launch_with_enclosing(profile, wanted, [&](const CpuRange& launch, std::span<const CpuRange* const> enc) {
    auto slot = static_cast<std::size_t>(wanted.slot(launch.correlation));
    if (seen[slot]) return;
    seen[slot] = 1;
    auto [at, fresh] = list_of_thread.try_emplace(ThreadKey{launch.pid, launch.tid}, lists.size());
    if (fresh) lists.emplace_back();
    std::vector<std::uint32_t>& list = lists[at->second];
    auto begin = static_cast<std::uint32_t>(list.size());
    list.insert(list.end(), by_slot.begin() + first[slot], by_slot.begin() + first[slot + 1]);
    std::size_t k = 0;  // the launches of one thread mostly share their enclosing operators: looked up once
    for (const CpuRange* r : enc) {
      if (r->kind != CpuRangeKind::kOperator) continue;
      if (k >= known.size() || known[k].first != r) {
        known.resize(k);
        known.emplace_back(r, call_of(static_cast<std::uint32_t>(r - profile.cpu.data())));
      }
      Stored& c = calls_[known[k++].second];
      if (c.activity_count == 0) c.first_activity = begin;
      c.activity_count = static_cast<std::uint32_t>(list.size()) - c.first_activity;
    }
  });
  // The threads' lists, one after another.
  std::vector<std::uint32_t> base(lists.size(), 0);
  for (std::size_t l = 0; l < lists.size(); ++l) {
    base[l] = static_cast<std::uint32_t>(activities_.size());
    activities_.insert(activities_.end(), lists[l].begin(), lists[l].end());
    lists[l] = {};
  }
  for (Stored& c : calls_) {
    if (c.activity_count == 0) continue;
    const CpuRange& r = profile.cpu[c.range];
    c.first_activity += base[list_of_thread.at(ThreadKey{r.pid, r.tid})];
  }
}

// The operator calls are in order of start, the longer first, then of index in profile.cpu.
std::uint32_t OperatorCalls::call_of(std::uint32_t range) const {
  const auto& cpu = profile_->cpu;
  const CpuRange& key = cpu[range];
  auto it = std::lower_bound(calls_.begin(), calls_.end(), range, [&](const Stored& c, std::uint32_t) {
    const CpuRange& x = cpu[c.range];
    if (x.start != key.start) return x.start < key.start;
    if (x.end != key.end) return x.end > key.end;
    return c.range < range;
  });
  return static_cast<std::uint32_t>(it - calls_.begin());
}

OpCall OperatorCalls::operator[](std::size_t k) const {
  const Stored& s = calls_[k];
  const CpuRange& r = profile_->cpu[s.range];
  OpCall c;
  c.range = s.range;
  c.name = profile_->name_of(r.name);
  if (r.inputs >= 0 && static_cast<std::size_t>(r.inputs) < profile_->op_inputs.size())
    c.inputs = &profile_->op_inputs[static_cast<std::size_t>(r.inputs)];
  c.activities = std::span<const std::uint32_t>(activities_).subspan(s.first_activity, s.activity_count);
  c.depth = s.depth;
  c.tid = r.tid;
  return c;
}

const std::vector<std::int64_t>& op_arg_dims(const OpCall& call, std::size_t i) {
  static const std::vector<std::int64_t> kNone;
  if (!call.inputs || i >= call.inputs->args.size()) return kNone;
  return call.inputs->args[i].dims;
}

std::string_view op_arg_type(const OpCall& call, std::size_t i) {
  if (!call.inputs || i >= call.inputs->args.size()) return {};
  return call.inputs->args[i].type;
}

}  // namespace cuprobe
