#include "report/html/finding_evidence.h"

#include <cmath>
#include <optional>

#include "common/units.h"

namespace cuprobe {
namespace {

enum class Unit { kMs, kUs, kCount, kShare, kBytes, kTbps };

struct Words {
  std::string_view key;
  Unit unit;
  std::string_view before, after;  // the phrase around the value; "{span}" becomes "step" or "window"
};

// Every key Finding::numbers carries (analysis/findings*.cpp, collective_wait.cpp, straggler.cpp; docs/findings.md).
constexpr Words kWords[] = {
    {"time_ms", Unit::kMs, "", " of GPU time in all"},
    {"calls", Unit::kCount, "", " calls"},
    {"per_step_ms", Unit::kMs, "", " per step"},
    {"bytes_per_step", Unit::kBytes, "", " moved per step"},
    {"bytes_per_call", Unit::kBytes, "", " per call"},
    {"achieved_tbps", Unit::kTbps, "at ", ""},
    {"peak_share", Unit::kShare, "", " of the memory bandwidth peak"},
    {"step_ms_after_gathered_only", Unit::kMs, "{span} ", " with only the gathered entries cast"},
    {"gathered_fraction", Unit::kShare, "the gather reads ", " of the cast elements"},
    {"step_ms_after_copy_bandwidth", Unit::kMs, "{span} ", " with the cast at copy bandwidth"},
    {"tensor_core_share", Unit::kShare, "", " of GPU time on tensor cores"},
    {"cuda_core_matmul_ms", Unit::kMs, "", " of matmuls on CUDA cores"},
    {"copies_per_step", Unit::kCount, "", " host<->device copies per step"},
    {"bytes", Unit::kBytes, "", " copied in all"},
    {"idle_share", Unit::kShare, "GPU idle ", " of the {span}"},
    {"launches_per_step", Unit::kCount, "", " launch calls per {span}"},
    {"syncs_per_step", Unit::kCount, "", " synchronizations per {span}"},
    {"kernels_per_step", Unit::kCount, "", " kernels per {span}"},
    {"median_kernel_us", Unit::kUs, "median kernel ", ""},
    {"short_gap_share", Unit::kShare, "", " of the {span} idle in gaps a launch explains"},
    {"launch_api_us_mean", Unit::kUs, "", " per launch call on the CPU"},
    {"launch_call_share", Unit::kShare, "launch calls take ", " of the {span} on the CPU"},
    {"gpus", Unit::kCount, "", " GPUs"},
    {"excess_ms", Unit::kMs, "", " waiting beyond the fastest peer in all"},
    {"communication_ms", Unit::kMs, "", " in collectives in all"},
    {"worst_call_ms", Unit::kMs, "the worst call took ", ""},
    {"worst_call_peer_ms", Unit::kMs, "", " on its fastest peer"},
    {"host_floor_ms", Unit::kMs, "the host needs ", " to launch each {span}"},
    {"profiler_events_per_step", Unit::kCount, "", " profiler events recorded per {span}"},
    {"gpu_path_saving_ms", Unit::kMs, "at most ", " saved per {span}: the GPU waits for the host's launches"},
    {"step_ms_without_profiler", Unit::kMs, "{span} ", " without the profiler's own host time (estimated)"},
    {"step_ms_without_profiler_least", Unit::kMs, "{span} as short as ", " without the tracer's own host time"},
    // The pattern findings (analysis/findings_patterns.h; docs/findings.md "Patterns").
    {"saved_ms_per_step", Unit::kMs, "the fix saves ", " per {span}"},
    {"framework_gap_ms_per_step", Unit::kMs, "", " per {span} idle while the host runs the framework"},
    {"read_backs_per_step", Unit::kCount, "", " read-backs per {span}"},
    {"idle_after_read_backs_ms_per_step", Unit::kMs, "", " per {span} idle after them"},
    {"gaps_per_step", Unit::kCount, "", " long idle gaps per {span}"},
    {"idle_ms_per_step", Unit::kMs, "", " idle per {span}"},
    {"alloc_calls_per_step", Unit::kCount, "", " cudaMalloc/cudaFree calls per {span}"},
    {"achieved_gbps", Unit::kCount, "at ", " GB/s"},
    {"pinned_gbps", Unit::kCount, "pinned memory reaches ", " GB/s"},
    {"cat_calls_per_step", Unit::kCount, "", " cat calls per {span}"},
    {"cat_ms_per_step", Unit::kMs, "", " of cat copies per {span}"},
    {"cat_growth_per_step", Unit::kShare, "the copy grows ", " per {span}"},
    {"casts_per_step", Unit::kCount, "", " casts per {span}"},
    {"cast_ms_per_step", Unit::kMs, "", " of casts per {span}"},
    {"cast_bytes_per_step", Unit::kBytes, "", " cast per {span}"},
    {"attentions_per_step", Unit::kCount, "", " attentions per {span}"},
    {"math_path_ms_per_step", Unit::kMs, "", " per {span} on the math path"},
    {"fused_ms_per_step", Unit::kMs, "fused: about ", " per {span}"},
    {"fp32_gemm_ms_per_step", Unit::kMs, "", " of fp32 GEMMs per {span}"},
    {"bf16_gemm_ms_per_step", Unit::kMs, "in bf16: about ", " per {span}"},
    {"other_fp32_saved_ms_per_step", Unit::kMs, "", " saved per {span} on the other fp32 kernels"},
    {"repeats_per_step", Unit::kCount, "", " K/V repeats per {span}"},
    {"copy_ms_per_step", Unit::kMs, "", " of copies per {span}"},
    {"n_rep", Unit::kCount, "each KV head read ", " times"},
    {"attention_saved_ms_per_step", Unit::kMs, "", " of attention saved per {span}"},
    {"chains_per_step", Unit::kCount, "", " kernel chains per {span}"},
    {"chain_ms_per_step", Unit::kMs, "", " in the chains per {span}"},
    {"moe_layers_per_step", Unit::kCount, "", " MoE layers per {span}"},
    {"experts_per_layer", Unit::kCount, "", " experts each"},
    {"loop_span_ms_per_step", Unit::kMs, "the loops span ", " per {span}"},
    {"grouped_gemm_ms_per_step", Unit::kMs, "one grouped GEMM: about ", " per {span}"},
    {"projection_ms_per_step", Unit::kMs, "", " in the projection and its casts per {span}"},
    {"positions", Unit::kCount, "", " positions computed"},
    {"late_calls", Unit::kCount, "last at ", " collective calls"},
    {"late_median_ms", Unit::kMs, "typically ", " after the median rank"},
    {"cost_ms_per_step", Unit::kMs, "", " of every rank's step"},
    {"extra_idle_ms_per_step", Unit::kMs, "GPU idle (host gaps) ", " more per step than the median rank"},
    {"extra_copy_ms_per_step", Unit::kMs, "copies ", " more per step than the median rank"},
};

// The per-GPU keys of pipeline_bubble: "gpu3_busy_share", "gpu3_waiting_share".
struct GpuKey {
  std::string gpu;
  bool waiting = false;
};

std::optional<GpuKey> gpu_key(std::string_view key) {
  if (!key.starts_with("gpu")) return std::nullopt;
  std::size_t digits = 3;
  while (digits < key.size() && key[digits] >= '0' && key[digits] <= '9') ++digits;
  if (digits == 3) return std::nullopt;
  std::string_view rest = key.substr(digits);
  if (rest != "_busy_share" && rest != "_waiting_share") return std::nullopt;
  return GpuKey{std::string(key.substr(3, digits - 3)), rest == "_waiting_share"};
}

std::string value_text(Unit unit, double v) {
  switch (unit) {
    case Unit::kMs:
      return format_duration_ms(v);
    case Unit::kUs:
      return format_duration_ms(v / 1e3);
    case Unit::kCount:
      return format_fixed(v, std::abs(v - std::round(v)) < 0.05 || std::abs(v) >= 100 ? 0 : 1);
    case Unit::kShare:
      return format_percent(v);
    case Unit::kBytes:
      return format_bytes(v);
    case Unit::kTbps:
      return format_fixed(v, 2) + " TB/s";
  }
  return format_fixed(v, 3);
}

std::string with_span(std::string_view text, std::string_view span) {
  std::string out(text);
  for (std::size_t at; (at = out.find("{span}")) != std::string::npos;) out.replace(at, 6, span);
  return out;
}

const Words* words_of(std::string_view key) {
  for (const Words& w : kWords) {
    if (w.key == key) return &w;
  }
  return nullptr;
}

}  // namespace

bool evidence_key_known(std::string_view key) { return words_of(key) || gpu_key(key); }

std::vector<std::string> evidence_words(const Finding& f, bool per_step) {
  std::string_view span = per_step ? "step" : "window";
  std::vector<std::string> out;
  for (const auto& [key, value] : f.numbers) {
    if (const Words* w = words_of(key)) {
      out.push_back(with_span(w->before, span) + value_text(w->unit, value) + with_span(w->after, span));
    } else if (auto g = gpu_key(key)) {
      out.push_back("GPU " + g->gpu + (g->waiting ? " waits for another GPU " : " busy ") + format_percent(value) +
                    " of the " + std::string(span));
    } else {
      out.push_back(key + ": " + format_fixed(value, 3));
    }
  }
  return out;
}

}  // namespace cuprobe
