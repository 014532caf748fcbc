#include "analysis/category_overlap.h"

#include <array>
#include <map>

#include "analysis/interval_union.h"
#include "common/percentile.h"
#include "model/time_range.h"

namespace cuprobe {
namespace {

enum Role { kComm, kCopy, kCompute, kRoleCount };

// Memset is neither: it fills memory, it neither hides nor is hidden.
int role_of(const GpuActivity& a, const KernelClass& c) {
  if (a.kind == GpuActivityKind::kMemset || c.category == Category::kMemset) return -1;
  if (a.kind == GpuActivityKind::kMemcpy || c.category == Category::kMemcpy) return kCopy;
  if (c.category == Category::kCommunication) return kComm;
  return kCompute;
}

struct Counts {
  TimeNs comm = 0, comm_overlapped = 0, copy = 0, copy_overlapped = 0;
};

// Per GPU, the three roles' intervals.
using ByDevice = std::map<std::int32_t, std::array<std::vector<Interval>, kRoleCount>>;

Counts count(ByDevice& by_device) {
  Counts c;
  for (auto& [device, roles] : by_device) {
    std::vector<Interval> comm = merged_intervals(roles[kComm]);
    std::vector<Interval> copy = merged_intervals(roles[kCopy]);
    std::vector<Interval> compute = merged_intervals(roles[kCompute]);
    for (const auto& [s, e] : comm) c.comm = saturating_add(c.comm, e - s);
    for (const auto& [s, e] : copy) c.copy = saturating_add(c.copy, e - s);
    c.comm_overlapped = saturating_add(c.comm_overlapped, intersection_length(comm, compute));
    c.copy_overlapped = saturating_add(c.copy_overlapped, intersection_length(copy, compute));
  }
  return c;
}

double share(TimeNs part, TimeNs whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

void fill_category_overlap(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                           RankAnalysis& out) {
  ByDevice window;
  std::vector<ByDevice> per_step(out.steps.steps.size());
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const GpuActivity& a = profile.gpu[i];
    int role = role_of(a, classes[i]);
    if (role < 0 || a.end <= a.start) continue;
    window[a.device][static_cast<std::size_t>(role)].emplace_back(a.start, a.end);
    int s = steps.activity_step[i];
    if (s >= 0 && static_cast<std::size_t>(s) < per_step.size()) {
      per_step[static_cast<std::size_t>(s)][a.device][static_cast<std::size_t>(role)].emplace_back(a.start, a.end);
    }
  }
  Counts all = count(window);
  CategoryOverlap& o = out.overlap;
  o.comm_ms = static_cast<double>(all.comm) / 1e6;
  o.comm_overlapped_ms = static_cast<double>(all.comm_overlapped) / 1e6;
  o.comm_overlapped_share = share(all.comm_overlapped, all.comm);
  o.copy_ms = static_cast<double>(all.copy) / 1e6;
  o.copy_overlapped_ms = static_cast<double>(all.copy_overlapped) / 1e6;
  o.copy_overlapped_share = share(all.copy_overlapped, all.copy);
  std::vector<double> comm_shares, copy_shares;
  for (std::size_t s = 0; s < per_step.size(); ++s) {
    Counts c = count(per_step[s]);
    Step& step = out.steps.steps[s];
    step.comm_ns = c.comm;
    step.comm_overlapped_ns = c.comm_overlapped;
    step.copy_ns = c.copy;
    step.copy_overlapped_ns = c.copy_overlapped;
    if (c.comm > 0) comm_shares.push_back(share(c.comm_overlapped, c.comm));
    if (c.copy > 0) copy_shares.push_back(share(c.copy_overlapped, c.copy));
  }
  o.steps_with_comm = static_cast<std::int64_t>(comm_shares.size());
  o.steps_with_copy = static_cast<std::int64_t>(copy_shares.size());
  if (!comm_shares.empty()) o.comm_overlapped_share_step_median = percentile(std::move(comm_shares), 50);
  if (!copy_shares.empty()) o.copy_overlapped_share_step_median = percentile(std::move(copy_shares), 50);
}

}  // namespace cuprobe
