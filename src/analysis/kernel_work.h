// Bytes and FLOPs per GPU activity: a kernel gets the work of the innermost
// operator around its launch whose shapes the work model knows (op_work.h);
// an operator that launches several kernels has its work split between them
// by their GPU time, so each of them shows the operator's rate. Memcpy and
// memset activities carry their own byte count (every importer has it).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/device_peaks.h"
#include "analysis/op_work.h"
#include "model/profile.h"

namespace cuprobe {

struct ActivityWork {
  bool known = false;
  double bytes = 0;
  double flops = 0;
  PeakDtype dtype = PeakDtype::kFp32;
  WorkKind kind = WorkKind::kTransfer;
  std::int32_t op = -1;  // index into WorkAttribution::ops; -1 for memcpy/memset records
  // Its kernel's counted work exceeds the device's peak (KernelWork::beyond_peak): left out of the what-ifs.
  bool beyond_peak = false;
};

struct WorkAttribution {
  std::vector<ActivityWork> activity;  // parallel to profile.gpu
  std::vector<OpWork> ops;             // each launching operator call's whole work
  bool shapes = false;                 // the profile carries operator shapes at all
};

WorkAttribution attribute_work(const Profile& profile);

// The time the work would take at the device's roofs: the larger of bytes at the memory
// bandwidth and FLOPs at the dtype's rate; none when a peak it needs is unknown.
std::optional<double> roofline_ms(double bytes, double flops, PeakDtype dtype, const DevicePeaks& peaks);

// Fills KernelRow::work for the rows whose calls have known work; a kernel whose counted bytes or FLOPs
// exceed what the device can do in its time gets KernelWork::beyond_peak.
void fill_kernel_work(const Profile& profile, const WorkAttribution& work, RankAnalysis& analysis);

// Marks the activities of the kernels beyond the device's peak (ActivityWork::beyond_peak) and warns of each.
void exclude_beyond_peak(const Profile& profile, RankAnalysis& analysis, WorkAttribution& work);

}  // namespace cuprobe
