#include "analysis/kernel_work.h"

#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "analysis/gather_sizing.h"
#include "analysis/launch_context.h"
#include "analysis/thresholds.h"

namespace cuprobe {
namespace {

// Gathers recorded without index shapes get their size per call (gather_sizing.h): each distinct size becomes its
// own entry in `ops`; a call nothing sizes gets -1.
void size_unsized_gathers(const Profile& profile, const std::vector<std::int32_t>& call_at,
                          const std::vector<std::size_t>& call_range, std::vector<std::int32_t>& call_work,
                          std::vector<OpWork>& ops) {
  std::vector<std::vector<std::size_t>> kernels_of;  // by call, only for unsized gathers
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (call_at[i] < 0) continue;
    auto call = static_cast<std::size_t>(call_at[i]);
    const OpWork& op = ops[static_cast<std::size_t>(call_work[call])];
    if (op.kind != WorkKind::kGather || !op.sized_by.empty()) continue;
    if (kernels_of.size() <= call) kernels_of.resize(call + 1);
    kernels_of[call].push_back(i);
  }
  std::map<std::tuple<std::int32_t, double, std::string>, std::int32_t> sized;  // (unsized op, size) -> ops index
  for (std::size_t call = 0; call < kernels_of.size(); ++call) {
    if (kernels_of[call].empty()) continue;
    std::int32_t& op = call_work[call];
    auto size = size_gather(profile, ops[static_cast<std::size_t>(op)], call_range[call], kernels_of[call]);
    if (!size) {
      op = -1;
      continue;
    }
    auto [it, fresh] = sized.try_emplace({op, size->elements, size->source}, static_cast<std::int32_t>(ops.size()));
    if (fresh) ops.push_back(sized_gather(ops[static_cast<std::size_t>(op)], *size));
    op = it->second;
  }
}

}  // namespace

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
  std::vector<std::size_t> call_range;                                // call -> its operator range in profile.cpu
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
        call_range.push_back(static_cast<std::size_t>(r - profile.cpu.data()));
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
  size_unsized_gathers(profile, call_at, call_range, call_work, w.ops);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (call_at[i] < 0) continue;
    auto call = static_cast<std::size_t>(call_at[i]);
    std::int32_t op = call_work[call];
    if (op < 0) continue;  // a gather nothing in the trace could size
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

namespace {

// Why a kernel's counted work is more than the device can do in its time; "" when it is not.
std::string beyond_peak(const KernelWork& k, PeakDtype dtype, const DevicePeaks& peaks) {
  auto over = [](double achieved, double peak, const char* unit, const std::string& what) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.3g %s is %.1fx the %s peak (%.3g %s)", achieved, unit, achieved / peak,
                  what.c_str(), peak, unit);
    return std::string(buf);
  };
  if (peaks.memory_tbps && k.achieved_tbps > *peaks.memory_tbps)
    return over(k.achieved_tbps, *peaks.memory_tbps, "TB/s", "memory bandwidth");
  auto rate = peaks.tflops_for(dtype);
  if (k.flops > 0 && rate && k.achieved_tflops > *rate)
    return over(k.achieved_tflops, *rate, "TFLOP/s", std::string(peak_dtype_name(dtype)));
  return "";
}

}  // namespace

void exclude_beyond_peak(const Profile& profile, RankAnalysis& analysis, WorkAttribution& work) {
  std::unordered_set<std::string_view> beyond;
  for (const auto& row : analysis.kernels) {
    if (!row.work || row.work->beyond_peak.empty()) continue;
    beyond.insert(row.name);
    analysis.warnings.push_back(analysis.file + ": kernel " + row.name.substr(0, 80) + ": its counted work gives " +
                                row.work->beyond_peak +
                                ", beyond what the GPU can do: the bytes or FLOPs counted "
                                "are not what it moved (an expanded tensor counted whole, or data served from cache); "
                                "left out of the what-ifs");
  }
  if (beyond.empty()) return;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (work.activity[i].known && beyond.contains(profile.name_of(profile.gpu[i].name)))
      work.activity[i].beyond_peak = true;
  }
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
      k.beyond_peak = beyond_peak(k, dtype, *analysis.peaks);
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
