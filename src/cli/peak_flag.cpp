#include "cli/peak_flag.h"

#include "analysis/device_peaks.h"

namespace cuprobe {

void add_peak_flag(CLI::App& app, std::string& text) {
  app.add_option("--peak", text,
                 "the GPU's peaks, overriding cuprobe's table: bw=TB/s and dense TFLOP/s per dtype "
                 "(fp32, tf32, bf16, fp16, fp8, fp4, int8), e.g. bw=4.8,bf16=989,fp8=1979");
}

void apply_peak_flag(const std::string& text, AnalyzeOptions& options) {
  if (!text.empty()) options.peak_overrides = parse_peak_overrides(text);
}

}  // namespace cuprobe
