// fp32_matmul: GEMMs in full fp32 on the CUDA cores (a model left in fp32 with TF32 off, PyTorch's default). Seen as
// GEMM kernels without tensor cores whose operator's inputs are fp32 (or, without shapes, whose kernel is an fp32
// one by name). The fix runs them in bf16 on the tensor cores: each GEMM at the bf16 peak with the efficiency it
// reaches now of the fp32 peak, or its bytes halved at copy bandwidth where that is longer (from the shapes);
// without shapes, its time scaled by the fp32 : bf16 peak ratio. The model's other fp32 kernels move half the bytes.
#include <algorithm>

#include "analysis/findings_patterns.h"
#include "analysis/pattern_thresholds.h"
#include "analysis/thresholds.h"
#include "common/units.h"

namespace cuprobe {

void add_fp32_matmul_finding(FindingsContext& ctx) {
  const Profile& p = ctx.profile;
  if (!ctx.analysis.peaks) return;
  const DevicePeaks& peaks = *ctx.analysis.peaks;
  auto fp32 = peaks.tflops_for(PeakDtype::kFp32);
  auto bf16 = peaks.tflops_for(PeakDtype::kBf16);
  std::optional<double> bw = copy_bandwidth(ctx);
  if (!fp32 || !bf16 || !bw) return;
  Finding f;
  double gemm_ms = 0, after_ms = 0, other_saved = 0;
  std::vector<std::size_t> others;
  bool from_shapes = true;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    if (p.gpu[i].kind != GpuActivityKind::kKernel || !ctx.counted(i)) continue;
    const KernelClass& c = ctx.classes[i];
    const ActivityWork& w = ctx.work.activity[i];
    double t = activity_ms(p, i);
    if (c.category != Category::kGemm) {
      if (w.known && w.op >= 0 && w.dtype == PeakDtype::kFp32 && c.category != Category::kAttention)
        others.push_back(i);
      continue;
    }
    bool fp32_gemm =
        w.known && w.op >= 0 ? w.dtype == PeakDtype::kFp32 : c.tensor_core == false && c.precision == Precision::kFp32;
    if (!fp32_gemm) continue;
    double after = 0;
    if (w.known && w.op >= 0 && w.flops > 0) {
      double achieved = w.flops / (t * 1e-3) / (*fp32 * 1e12);
      double efficiency = std::clamp(achieved, 0.3, 0.9);
      after = std::max(w.flops / (*bf16 * 1e12 * efficiency), w.bytes / 2 / *bw) * 1e3;
    } else {
      from_shapes = false;
      after = t * *fp32 / *bf16;
    }
    after = std::min(after, t);
    gemm_ms += t;
    after_ms += after;
    f.claim.activity_ms.emplace_back(i, t - after);
  }
  if (gemm_ms <= 0 || ctx.judged.total_ms <= 0 || gemm_ms / ctx.judged.total_ms < 0.10) return;
  for (std::size_t i : others) {
    double t = activity_ms(p, i);
    other_saved += t / 2;
    f.claim.activity_ms.emplace_back(i, t / 2);
  }
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  f.id = "fp32_matmul";
  f.share = gemm_ms / ctx.judged.total_ms;
  f.title = "fp32 GEMMs on the CUDA cores take " + format_percent(f.share) + " of GPU time (" +
            format_duration_ms(gemm_ms / steps) + " of each " + format_duration_ms(ctx.step_ms_now()) + " " +
            ctx.step_word() + "); in bf16 on the tensor cores about " + format_duration_ms(after_ms / steps);
  for (const auto& k : ctx.analysis.kernels) {
    if (k.category == Category::kGemm && k.tensor_core == false && f.kernels.size() < 3) f.kernels.push_back(k.name);
  }
  f.suggestion =
      "The matmuls run in full fp32 without tensor cores (the model was left in fp32 and TF32 is off, PyTorch's "
      "default). Run the model in bf16 (model.to(torch.bfloat16), or torch.autocast), or allow TF32 "
      "(torch.backends.cuda.matmul.allow_tf32 = True) where fp32 weights must stay.";
  f.numbers = {{"fp32_gemm_ms_per_step", gemm_ms / steps},
               {"bf16_gemm_ms_per_step", after_ms / steps},
               {"other_fp32_saved_ms_per_step", other_saved / steps}};
  std::string basis = from_shapes ? "each GEMM at the bf16 peak with its present efficiency, from the shapes"
                                  : "each GEMM's time x fp32/bf16 peak (" + format_fixed(*fp32, 0) + "/" +
                                        format_fixed(*bf16, 0) + " TFLOP/s)";
  push_pattern(ctx, std::move(f), (gemm_ms - after_ms + other_saved) / steps, "the model in bf16 (" + basis + ")");
}

}  // namespace cuprobe
