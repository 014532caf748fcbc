#include <cmath>

#include "report/bench_result.h"
#include "report/json_number.h"

namespace cuprobe {
namespace {

using ojson = nlohmann::ordered_json;

std::string backend_of(const std::string& endpoint) {
  if (endpoint.ends_with("/chat/completions")) return "sglang-oai-chat";
  if (endpoint.ends_with("/generate")) return "sglang";
  return "sglang-oai";
}

}  // namespace

ojson bench_result_sglang(const BenchReport& r) {
  const ojson& s = r.settings;
  const WindowMetrics& m = r.all;
  ojson j;
  j["tag"] = r.identity.contains("label") ? r.identity["label"] : ojson();
  j["backend"] = backend_of(s.value("endpoint", std::string()));
  j["dataset_name"] = s.contains("dataset_name") ? s["dataset_name"] : ojson("random");
  const double rate = s.value("rate", 0.0);
  j["request_rate"] = rate > 0 && s.value("ramp_up", std::string()).empty() ? ojson(rate) : ojson("inf");
  const int concurrency = s.value("concurrency", 0);
  j["max_concurrency"] = concurrency > 0 ? ojson(concurrency) : ojson();
  j["sharegpt_output_len"] = ojson();
  j["random_input_len"] = s.contains("input_len") ? s["input_len"] : ojson();
  j["random_output_len"] = s.contains("output_len") ? s["output_len"] : ojson();
  j["random_range_ratio"] = s.contains("random_range_ratio") ? s["random_range_ratio"] : ojson(0.0);
  j["server_info"] = ojson();
  j["duration"] = m.duration_s;
  j["completed"] = m.completed;
  const auto in = static_cast<std::int64_t>(std::llround(m.input_tokens));
  const auto out = static_cast<std::int64_t>(std::llround(m.output_tokens));
  j["total_input_tokens"] = in;
  j["total_input_text_tokens"] = in;
  j["total_input_vision_tokens"] = 0;
  j["total_output_tokens"] = out;
  j["total_output_tokens_retokenized"] = out;  // cuprobe does not re-tokenize: the server's count
  j["request_throughput"] = m.request_per_s;
  j["input_throughput"] = m.input_tokens_per_s;
  j["output_throughput"] = m.output_tokens_per_s;
  j["total_throughput"] = m.total_tokens_per_s;
  j["mean_e2e_latency_ms"] = number_or_null<ojson>(m.e2e_ms.mean, m.e2e_ms.count);
  j["median_e2e_latency_ms"] = number_or_null<ojson>(m.e2e_ms.p50, m.e2e_ms.count);
  j["std_e2e_latency_ms"] = number_or_null<ojson>(m.e2e_ms.std, m.e2e_ms.count);
  j["p99_e2e_latency_ms"] = number_or_null<ojson>(m.e2e_ms.p99, m.e2e_ms.count);
  for (const auto& [name, d] :
       {std::pair<const char*, const Distribution*>{"ttft", &m.ttft_ms}, {"tpot", &m.tpot_ms}, {"itl", &m.itl_ms}}) {
    std::string n(name);
    j["mean_" + n + "_ms"] = number_or_null<ojson>(d->mean, d->count);
    j["median_" + n + "_ms"] = number_or_null<ojson>(d->p50, d->count);
    j["std_" + n + "_ms"] = number_or_null<ojson>(d->std, d->count);
    if (n != "ttft" && n != "tpot") j["p95_" + n + "_ms"] = number_or_null<ojson>(d->p95, d->count);
    j["p99_" + n + "_ms"] = number_or_null<ojson>(d->p99, d->count);
  }
  j["concurrency"] = m.concurrency;
  j["accept_length"] = ojson();
  j["max_output_tokens_per_s"] = m.peak_output_per_s;
  j["max_concurrent_requests"] = m.peak_concurrent_requests;
  j["cuprobe"] = r.identity;
  return j;
}

}  // namespace cuprobe
