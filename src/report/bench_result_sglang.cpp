#include <cmath>

#include "report/bench_result.h"
#include "report/json_number.h"

namespace cuprobe {
namespace {

using ojson = nlohmann::ordered_json;

// --backend as given, else SGLang's name for the endpoint.
std::string backend_of(const ojson& s) {
  if (s.contains("backend")) return s["backend"].get<std::string>();
  const std::string endpoint = s.value("endpoint", std::string());
  if (endpoint.ends_with("/chat/completions")) return "sglang-oai-chat";
  if (endpoint.ends_with("/generate")) return "sglang";
  return "sglang-oai";
}

// A dataset setting, else `fallback` (a key of the settings themselves), else null.
ojson dataset_value(const ojson& s, const char* key, const char* fallback) {
  if (s.contains("dataset") && s["dataset"].contains(key)) return s["dataset"][key];
  return fallback && s.contains(fallback) && !s[fallback].is_null() ? s[fallback] : ojson();
}

}  // namespace

ojson bench_result_sglang(const BenchReport& r, const PeerResultOptions& options) {
  const ojson& s = r.settings;
  const WindowMetrics& m = r.all;
  ojson j;
  j["tag"] = r.identity.contains("label") ? r.identity["label"] : ojson();
  j["backend"] = backend_of(s);
  // Without --dataset-name: cuprobe's synthetic prompts, random lengths of its own.
  j["dataset_name"] = s.contains("dataset") ? s["dataset"]["name"] : ojson("random");
  const double rate = s.value("rate", 0.0);
  j["request_rate"] = rate > 0 && s.value("ramp_up", std::string()).empty() ? ojson(rate) : ojson("inf");
  if (s.contains("max_concurrency")) {
    j["max_concurrency"] = s["max_concurrency"];
  } else {
    const int concurrency = s.value("concurrency", 0);
    j["max_concurrency"] = concurrency > 0 ? ojson(concurrency) : ojson();
  }
  ojson sharegpt = dataset_value(s, "sharegpt_output_len", nullptr);
  j["sharegpt_output_len"] = sharegpt.is_number() && sharegpt.get<std::int64_t>() > 0 ? sharegpt : ojson();
  j["random_input_len"] = dataset_value(s, "random_input_len", "input_len");
  j["random_output_len"] = dataset_value(s, "random_output_len", "output_len");
  ojson ratio = dataset_value(s, "random_range_ratio", nullptr);
  j["random_range_ratio"] = ratio.is_null() ? ojson(0.0) : ratio;
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
  // mean, median, std, p90, p95, p99 of each (SGLang's fixed set; not --percentiles).
  for (const auto& [name, d] : {std::pair<const char*, const Distribution*>{"e2e_latency", &m.e2e_ms},
                                {"ttft", &m.ttft_ms},
                                {"tpot", &m.tpot_ms},
                                {"itl", &m.itl_ms}}) {
    std::string n(name);
    j["mean_" + n + "_ms"] = number_or_null<ojson>(d->mean, d->count);
    j["median_" + n + "_ms"] = number_or_null<ojson>(d->p50, d->count);
    j["std_" + n + "_ms"] = number_or_null<ojson>(d->std, d->count);
    j["p90_" + n + "_ms"] = number_or_null<ojson>(d->p90, d->count);
    j["p95_" + n + "_ms"] = number_or_null<ojson>(d->p95, d->count);
    j["p99_" + n + "_ms"] = number_or_null<ojson>(d->p99, d->count);
  }
  j["concurrency"] = m.concurrency;
  j["accept_length"] = ojson();
  j["max_output_tokens_per_s"] = m.peak_output_per_s;
  j["max_concurrent_requests"] = m.peak_concurrent_requests;
  if (options.detailed && r.load) add_result_details(j, r);
  if (options.identity) j["cuprobe"] = r.identity;  // not a key SGLang writes: only when asked
  return j;
}

}  // namespace cuprobe
