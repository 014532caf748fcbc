#include <cmath>
#include <ctime>

#include "report/bench_result.h"

namespace cuprobe {
namespace {

using ojson = nlohmann::ordered_json;

// vLLM writes np.mean(x or 0): 0 for an empty set.
double or_zero(double v, std::size_t count) { return count == 0 || !std::isfinite(v) ? 0.0 : v; }

void add_metric(ojson& j, const char* name, const Distribution& d) {
  j[std::string("mean_") + name + "_ms"] = or_zero(d.mean, d.count);
  j[std::string("median_") + name + "_ms"] = or_zero(d.p50, d.count);
  j[std::string("std_") + name + "_ms"] = or_zero(d.std, d.count);
  for (const auto& [q, v] : d.percentiles) j["p" + percentile_word(q) + "_" + name + "_ms"] = or_zero(v, d.count);
}

std::string backend_of(const std::string& endpoint) {
  if (endpoint.ends_with("/chat/completions")) return "openai-chat";
  if (endpoint.ends_with("/generate")) return "sglang";
  return "openai";
}

}  // namespace

ojson bench_result_vllm(const BenchReport& r) {
  const ojson& s = r.settings;
  const WindowMetrics& m = r.all;
  ojson j;
  std::time_t secs = static_cast<std::time_t>(r.identity.value("start_ns", std::int64_t{0}) / 1'000'000'000);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y%m%d-%H%M%S", &tm);
  j["date"] = date;
  std::string backend = backend_of(s.value("endpoint", std::string()));
  j["endpoint_type"] = backend;
  j["backend"] = backend;
  j["label"] = r.identity.contains("label") ? r.identity["label"] : ojson();
  j["model_id"] = s.value("model", std::string());
  j["tokenizer_id"] = s.value("model", std::string());
  j["num_prompts"] = s.value("requests", std::uint64_t{0});
  if (r.identity.contains("metadata")) {
    for (const auto& [k, v] : r.identity["metadata"].items()) j[k] = v;
  }
  const double rate = s.value("rate", 0.0);
  const bool ramp = !s.value("ramp_up", std::string()).empty();
  j["request_rate"] = rate > 0 && !ramp ? ojson(rate) : ojson("inf");
  j["burstiness"] = s.contains("burstiness") ? s["burstiness"] : ojson(1.0);
  const int concurrency = s.value("concurrency", 0);
  j["max_concurrency"] = concurrency > 0 ? ojson(concurrency) : ojson();
  if (ramp) {
    j["ramp_up_strategy"] = s["ramp_up"];
    j["ramp_up_start_rps"] = s["ramp_up_start_rps"];
    j["ramp_up_end_rps"] = s["ramp_up_end_rps"];
  }
  j["duration"] = m.duration_s;
  j["completed"] = m.completed;
  j["failed"] = m.failed;
  j["total_input_tokens"] = static_cast<std::int64_t>(std::llround(m.input_tokens));
  j["total_output_tokens"] = static_cast<std::int64_t>(std::llround(m.output_tokens));
  j["request_throughput"] = m.request_per_s;
  j["request_goodput"] = r.metrics.goodput.any() ? ojson(m.goodput_per_s) : ojson();
  j["output_throughput"] = m.output_tokens_per_s;
  j["total_token_throughput"] = m.total_tokens_per_s;
  j["max_output_tokens_per_s"] = m.peak_output_per_s;
  j["max_concurrent_requests"] = m.peak_concurrent_requests;
  j["rtfx"] = 0.0;  // vLLM's inverse real-time factor: audio seconds per second, 0 without audio inputs
  add_metric(j, "ttft", m.ttft_ms);
  add_metric(j, "tpot", m.tpot_ms);
  add_metric(j, "itl", m.itl_ms);
  add_metric(j, "e2el", m.e2e_ms);
  j["cuprobe"] = r.identity;
  return j;
}

}  // namespace cuprobe
