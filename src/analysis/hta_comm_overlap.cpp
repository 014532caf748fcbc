#include "analysis/hta_comm_overlap.h"

#include <vector>

#include "analysis/interval_union.h"
#include "model/time_range.h"

namespace cuprobe {

HtaKernelType hta_kernel_type(const GpuActivity& activity, std::string_view name) {
  if (activity.kind == GpuActivityKind::kMemcpy || activity.kind == GpuActivityKind::kMemset)
    return HtaKernelType::kMemory;
  // NCCL_KERNEL_RE = ^nccl.*Kernel (ncclKernel_* before NCCL 2.19, ncclDevKernel_* since).
  if (name.starts_with("nccl") && name.find("Kernel", 4) != std::string_view::npos)
    return HtaKernelType::kCommunication;
  // MEMORY_KERNEL_RE = (^Memcpy)|(^Memset)|(^dma)
  if (name.starts_with("Memcpy") || name.starts_with("Memset") || name.starts_with("dma"))
    return HtaKernelType::kMemory;
  // is_compute_kernel: not (^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync) under re.match.
  if (name.find("Memcpy") != std::string_view::npos || name.find("Sync") != std::string_view::npos)
    return HtaKernelType::kOther;
  return HtaKernelType::kComputation;
}

HtaCommOverlap hta_comm_overlap(const Profile& profile) {
  HtaCommOverlap out;
  std::vector<Interval> comm, comp;
  for (const GpuActivity& a : profile.gpu) {
    HtaKernelType type = hta_kernel_type(a, profile.name_of(a.name));
    if (type == HtaKernelType::kCommunication) {
      ++out.communication_kernels;
      comm.emplace_back(a.start, a.end);
    } else if (type == HtaKernelType::kComputation) {
      comp.emplace_back(a.start, a.end);
    }
  }
  // merge_kernel_intervals per type, then the time both run (HTA: the running sum of +1/-1 and +2/-2 equal to 3).
  std::vector<Interval> comm_merged = merged_intervals(comm);
  std::vector<Interval> comp_merged = merged_intervals(comp);
  TimeNs comm_ns = 0, comp_ns = 0;
  for (const auto& [s, e] : comm_merged) comm_ns = saturating_add(comm_ns, e - s);
  for (const auto& [s, e] : comp_merged) comp_ns = saturating_add(comp_ns, e - s);
  TimeNs both = intersection_length(comm_merged, comp_merged);
  out.communication_ms = static_cast<double>(comm_ns) / 1e6;
  out.computation_ms = static_cast<double>(comp_ns) / 1e6;
  out.overlap_ms = static_cast<double>(both) / 1e6;
  if (comm_ns > 0) out.comp_comm_overlap_pctg = 100.0 * static_cast<double>(both) / static_cast<double>(comm_ns);
  return out;
}

}  // namespace cuprobe
