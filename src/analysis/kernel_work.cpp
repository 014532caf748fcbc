#include "analysis/kernel_work.h"

#include <unordered_map>
#include <unordered_set>

#include "analysis/launch_context.h"
#include "analysis/thresholds.h"

namespace cuprobe {

WorkAttribution attribute_work(const Profile& profile) {
  WorkAttribution w;
  w.activity.resize(profile.gpu.size());
  w.shapes = !profile.op_inputs.empty();
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    if ((a.kind == GpuActivityKind::kMemcpy || a.kind == GpuActivityKind::kMemset) && a.bytes > 0) {
      auto& aw = w.activity[i];
      aw.known = true;
      // A device-to-device copy reads and writes each byte of GPU memory (as copy_'s formula counts it).
      aw.bytes = static_cast<double>(a.bytes) * (a.memcpy_kind == MemcpyKind::kDtoD ? 2 : 1);
      aw.kind = WorkKind::kTransfer;
    }
  }
  if (!w.shapes) return w;

  std::vector<std::int64_t> kernels;
  for (const auto& a : profile.gpu) {
    if (a.kind == GpuActivityKind::kKernel && a.correlation >= 0) kernels.push_back(a.correlation);
  }
  const CorrelationIndex wanted(std::move(kernels));
  // The work model runs once per distinct (operator, arguments); its work is split per call.
  std::unordered_map<std::uint64_t, std::int32_t> work_of_signature;  // -1: not a known operator
  std::vector<std::int32_t> call_of_range(profile.cpu.size(), -1);    // operator call (by its index) -> index
  std::vector<std::int32_t> call_work;                                // call -> w.ops index
  std::vector<std::int32_t> call_of_launch(wanted.size(), -1);        // by the launch's slot in wanted
  auto work_of = [&](const CpuRange& r) {
    std::uint64_t signature = (static_cast<std::uint64_t>(r.name) << 32) | static_cast<std::uint32_t>(r.inputs);
    auto it = work_of_signature.find(signature);
    if (it == work_of_signature.end()) {
      auto work = op_work(profile.name_of(r.name), profile.op_inputs[static_cast<std::size_t>(r.inputs)]);
      std::int32_t index = -1;
      if (work) {
        index = static_cast<std::int32_t>(w.ops.size());
        w.ops.push_back(std::move(*work));
      }
      it = work_of_signature.emplace(signature, index).first;
    }
    return it->second;
  };
  for_each_launch_with_enclosing(profile, wanted, [&](const CpuRange& launch, std::span<const CpuRange* const> ops) {
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {  // innermost first
      const CpuRange* r = *it;
      if (r->kind != CpuRangeKind::kOperator || r->inputs < 0) continue;
      std::int32_t work = work_of(*r);
      if (work < 0) continue;
      std::int32_t& call = call_of_range[static_cast<std::size_t>(r - profile.cpu.data())];
      if (call < 0) {
        call = static_cast<std::int32_t>(call_work.size());
        call_work.push_back(work);
      }
      std::int32_t& of_launch = call_of_launch[static_cast<std::size_t>(wanted.slot(launch.correlation))];
      if (of_launch < 0) of_launch = call;
      return;
    }
  });
  // Split each operator call's work between its kernels by GPU time.
  std::vector<TimeNs> call_time(call_work.size(), 0);
  std::vector<std::int64_t> call_kernels(call_work.size(), 0);
  std::vector<std::int32_t> call_at(profile.gpu.size(), -1);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    if (a.kind != GpuActivityKind::kKernel) continue;
    std::int32_t slot = wanted.slot(a.correlation);
    std::int32_t call = slot < 0 ? -1 : call_of_launch[static_cast<std::size_t>(slot)];
    if (call < 0) continue;
    call_at[i] = call;
    call_time[static_cast<std::size_t>(call)] += a.duration();
    call_kernels[static_cast<std::size_t>(call)] += 1;
  }
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (call_at[i] < 0) continue;
    auto call = static_cast<std::size_t>(call_at[i]);
    std::int32_t op = call_work[call];
    const OpWork& ow = w.ops[static_cast<std::size_t>(op)];
    double part = call_time[call] > 0
                      ? static_cast<double>(profile.gpu[i].duration()) / static_cast<double>(call_time[call])
                      : 1.0 / static_cast<double>(call_kernels[call]);
    auto& aw = w.activity[i];
    aw.known = true;
    aw.bytes = ow.bytes * part;
    aw.flops = ow.flops * part;
    aw.dtype = ow.dtype;
    aw.kind = ow.kind;
    aw.op = op;
  }
  return w;
}

std::optional<double> roofline_ms(double bytes, double flops, PeakDtype dtype, const DevicePeaks& peaks) {
  double ms = 0;
  if (bytes > 0) {
    if (!peaks.memory_tbps) return std::nullopt;
    ms = bytes / (*peaks.memory_tbps * 1e12) * 1e3;
  }
  if (flops > 0) {
    auto rate = peaks.tflops_for(dtype);
    if (!rate) return std::nullopt;
    ms = std::max(ms, flops / (*rate * 1e12) * 1e3);
  }
  return ms;
}

void fill_kernel_work(const Profile& profile, const WorkAttribution& work, RankAnalysis& analysis) {
  std::unordered_map<std::string_view, KernelWork> by_name;
  std::unordered_map<std::string_view, PeakDtype> dtype_of;
  // Copies to or from the host (or another GPU) run at the link's speed, not the GPU memory's: no share of its peak.
  std::unordered_set<std::string_view> off_device;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& aw = work.activity[i];
    if (!aw.known) continue;
    std::string_view name = profile.name_of(profile.gpu[i].name);
    KernelWork& k = by_name[name];
    const auto& a = profile.gpu[i];
    if (a.kind == GpuActivityKind::kMemcpy && a.memcpy_kind != MemcpyKind::kDtoD) off_device.insert(name);
    k.bytes += aw.bytes;
    k.flops += aw.flops;
    k.calls += 1;
    k.time_ms += static_cast<double>(profile.gpu[i].duration()) / 1e6;
    if (k.source.empty()) {
      k.source = aw.op >= 0 ? "shapes" : "memcpy";
      dtype_of[name] = aw.dtype;
    }
  }
  for (auto& row : analysis.kernels) {
    auto it = by_name.find(row.name);
    if (it == by_name.end()) continue;
    KernelWork k = it->second;
    PeakDtype dtype = dtype_of[it->first];
    if (k.flops > 0) k.dtype = std::string(peak_dtype_name(dtype));
    if (k.time_ms > 0) {
      k.achieved_tbps = k.bytes / (k.time_ms * 1e-3) / 1e12;
      k.achieved_tflops = k.flops / (k.time_ms * 1e-3) / 1e12;
    }
    if (analysis.peaks && k.time_ms > 0 && !off_device.contains(it->first)) {
      if (auto roof = roofline_ms(k.bytes, k.flops, dtype, *analysis.peaks)) {
        k.peak_share = *roof / k.time_ms;
        // Which roof is higher: the memory one alone, against both.
        auto memory_ms = roofline_ms(k.bytes, 0, dtype, *analysis.peaks).value_or(0);
        if (*k.peak_share < thresholds::kLatencyBoundPeakShare)
          k.bound = "latency";
        else
          k.bound = memory_ms >= *roof ? "memory" : "compute";
      }
    }
    row.work = std::move(k);
  }
}

}  // namespace cuprobe
