#include "report/bench_settings.h"

#include "common/utf8.h"

namespace cuprobe {

nlohmann::ordered_json bench_settings_json(const BenchSettings& s, const LoadOptions& load) {
  using ojson = nlohmann::ordered_json;
  const bool open_loop = load.rate > 0;
  ojson j;
  j["url"] = s.url;
  j["endpoint"] = s.endpoint;
  j["model"] = repair_utf8(s.model);
  j["mode"] = open_loop ? "open_loop" : "closed_loop";
  j["concurrency"] = load.concurrency;
  j["max_concurrency"] = s.max_concurrency ? ojson(*s.max_concurrency) : ojson();
  if (!s.backend.empty()) j["backend"] = s.backend;
  if (!s.model_id.empty()) j["model_id"] = repair_utf8(s.model_id);
  if (!s.tokenizer.empty()) j["tokenizer"] = repair_utf8(s.tokenizer);
  j["rate"] = load.rate;
  j["arrival"] = open_loop ? s.arrival : "";
  j["requests"] = load.requests;
  j["duration_s"] = load.duration_ns / 1e9;
  j["warmup_requests"] = load.warmup_requests;
  j["warmup_s"] = load.warmup_ns / 1e9;
  j["prompts"] = repair_utf8(s.prompts);
  j["input_len"] = s.input_len ? ojson(*s.input_len) : ojson();
  if (s.dataset) j["dataset"] = *s.dataset;
  j["prompt_lengths"] = !s.dataset                              ? ojson("words")
                        : s.dataset->contains("prompt_lengths") ? (*s.dataset)["prompt_lengths"]
                                                                : ojson();
  j["output_len"] = s.output_len;
  j["ignore_eos"] = s.ignore_eos;
  j["stream_options"] = s.stream_options && load.api != ApiKind::kGenerate;
  j["temperature"] = s.temperature ? nlohmann::ordered_json(*s.temperature) : nlohmann::ordered_json();
  j["request_body"] = s.request_body;
  j["sampling"] = s.sampling;
  j["seed"] = load.seed;
  j["request_timeout_s"] = load.request_timeout_ns / 1e9;
  j["timeout_s"] = load.run_timeout_ns / 1e9;
  j["keep_alive"] = load.keep_alive;
  j["proxy"] = load.proxy ? ojson(repair_utf8(load.proxy->display())) : ojson();
  j["max_error_rate"] = s.max_error_rate;
  j["fields_dropped"] = s.fields_dropped;
  j["notes"] = s.notes;
  j["burstiness"] = load.arrival == Arrival::kConstant ? ojson("inf") : ojson(load.burstiness);
  if (load.ramp != RampUp::kNone) {
    j["ramp_up"] = s.ramp_up;
    j["ramp_up_start_rps"] = load.ramp_start_rps;
    j["ramp_up_end_rps"] = load.ramp_end_rps;
  }
  j["percentiles"] = s.percentiles;
  j["server_metrics"] = s.server_metrics;
  return j;
}

}  // namespace cuprobe
