#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "common/clock.h"
#include "common/utf8.h"
#include "report/bench_result.h"

namespace cuprobe {
namespace {

using ojson = nlohmann::ordered_json;

// vLLM writes np.mean(x or 0): 0 for an empty set.
double or_zero(double v, std::size_t count) { return count == 0 || !std::isfinite(v) ? 0.0 : v; }

// --backend as given, else vLLM's name for the endpoint.
std::string backend_of(const ojson& s) {
  if (s.contains("backend")) return s["backend"].get<std::string>();
  const std::string endpoint = s.value("endpoint", std::string());
  if (endpoint.ends_with("/chat/completions")) return "openai-chat";
  if (endpoint.ends_with("/generate")) return "sglang";
  return "openai";
}

// vLLM's date: local time, %Y%m%d-%H%M%S, of the run's start.
std::string date_of(const BenchReport& r) {
  std::time_t secs = static_cast<std::time_t>(r.identity.value("start_ns", std::int64_t{0}) / 1'000'000'000);
  return clock_text(secs, "%Y%m%d-%H%M%S", TimeZone::kLocal);
}

// The cap as vLLM writes it: --max-concurrency, null without one.
ojson max_concurrency_of(const ojson& s) {
  if (s.contains("max_concurrency")) return s["max_concurrency"];
  const int concurrency = s.value("concurrency", 0);
  return concurrency > 0 ? ojson(concurrency) : ojson();
}

// Python's str(float): 8.0, 2.5, inf.
std::string python_float(double v) {
  if (!std::isfinite(v)) return "inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.1f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
    for (int digits = 1; digits <= 17; ++digits) {  // the shortest that reads back the same
      std::snprintf(buf, sizeof buf, "%.*g", digits, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
  }
  return buf;
}

}  // namespace

std::string vllm_result_filename(const BenchReport& r) {
  const ojson& s = r.settings;
  std::string label = r.identity.contains("label") ? r.identity["label"].get<std::string>() : "";
  if (label.empty()) label = backend_of(s);
  std::string model = s.value("model_id", s.value("model", std::string()));
  model = model.substr(model.rfind('/') == std::string::npos ? 0 : model.rfind('/') + 1);
  ojson cap = max_concurrency_of(s);
  std::string concurrency = cap.is_null() ? "" : "-concurrency" + std::to_string(cap.get<int>());
  std::string traffic;
  if (s.contains("ramp_up")) {
    traffic = "-ramp-up-" + s["ramp_up"].get<std::string>() + "-" +
              std::to_string(std::llround(s["ramp_up_start_rps"].get<double>())) + "qps-" +
              std::to_string(std::llround(s["ramp_up_end_rps"].get<double>())) + "qps";
  } else {
    double rate = s.value("rate", 0.0);
    traffic = "-" + python_float(rate > 0 ? rate : INFINITY) + "qps";
  }
  return label + traffic + concurrency + "-" + model + "-" + date_of(r) + ".json";
}

void add_result_details(ojson& j, const BenchReport& r, bool vllm) {
  ojson input_lens = ojson::array(), output_lens = ojson::array(), ttfts = ojson::array(), itls = ojson::array(),
        start_times = ojson::array(), texts = ojson::array(), errors = ojson::array();
  for (const RequestRecord& rec : r.load->records) {
    if (rec.warmup) continue;
    input_lens.push_back(rec.input_tokens() >= 0 ? rec.input_tokens() : 0);
    output_lens.push_back(rec.ok() ? rec.output_tokens() : 0);
    ojson gaps = ojson::array();
    for (std::size_t k = 1; k < rec.content_ns.size(); ++k)
      gaps.push_back(static_cast<double>(rec.content_ns[k] - rec.content_ns[k - 1]) / 1e9);
    ttfts.push_back(rec.content_ns.empty() ? 0.0 : static_cast<double>(rec.content_ns[0] - rec.send_ns) / 1e9);
    itls.push_back(std::move(gaps));
    start_times.push_back(static_cast<double>(rec.send_ns) / 1e9);
    texts.push_back(repair_utf8(rec.generated_text));
    errors.push_back(rec.ok() ? std::string() : repair_utf8(rec.error + ": " + rec.error_detail));
  }
  // vLLM's order: input_lens, output_lens, ttfts, itls, (latencies), start_times, (queue_times), generated_texts,
  // errors.
  j["input_lens"] = std::move(input_lens);
  j["output_lens"] = std::move(output_lens);
  j["ttfts"] = std::move(ttfts);
  j["itls"] = std::move(itls);
  if (vllm) {
    j["start_times"] = std::move(start_times);
    j["generated_texts"] = std::move(texts);
  }
  j["errors"] = std::move(errors);
}

namespace {

// vLLM's latencies (seconds, 0.0 for a failed request) and queue_times (seconds from a
// request's arrival to its send: --request-rate inf creates every request at the start,
// so in a closed loop its arrival is the run's first send).
void add_latencies_and_queue(ojson& j, const BenchReport& r, bool closed_loop, std::vector<double>& ok_queue,
                             std::vector<double>& ok_e2e_with_queue) {
  ojson latencies = ojson::array(), queue = ojson::array();
  std::int64_t first_send = 0;
  for (const RequestRecord& rec : r.load->records) {
    if (!rec.warmup && (first_send == 0 || rec.send_ns < first_send)) first_send = rec.send_ns;
  }
  for (const RequestRecord& rec : r.load->records) {
    if (rec.warmup) continue;
    const double latency = rec.ok() ? static_cast<double>(rec.end_ns - rec.send_ns) / 1e9 : 0.0;
    const std::int64_t arrival = closed_loop ? first_send : rec.scheduled_ns;
    const double waited = static_cast<double>(std::max<std::int64_t>(0, rec.send_ns - arrival)) / 1e9;
    latencies.push_back(latency);
    queue.push_back(waited);
    if (rec.ok()) {
      ok_queue.push_back(waited * 1e3);
      ok_e2e_with_queue.push_back((latency + waited) * 1e3);
    }
  }
  j["latencies"] = std::move(latencies);
  j["queue_times"] = std::move(queue);
}

// vLLM's ramp-up events: {"rps": int, "timestamp": local ISO time} each time the
// integer rate of the requests sent rises (serve.py benchmark(), rps_change_events).
ojson rps_change_events(const BenchReport& r) {
  const ojson& s = r.settings;
  const double start = s.value("ramp_up_start_rps", 0.0), end = s.value("ramp_up_end_rps", 0.0);
  const bool exponential = s.value("ramp_up", std::string()) == "exponential";
  std::vector<const RequestRecord*> sent;
  for (const RequestRecord& rec : r.load->records)
    if (!rec.warmup) sent.push_back(&rec);
  auto iso = [&](std::int64_t mono_ns) {
    const std::int64_t ns = mono_ns + r.load->realtime_offset_ns;
    char micros[16];
    std::snprintf(micros, sizeof micros, ".%06lld", static_cast<long long>(ns % 1'000'000'000 / 1000));
    return clock_text(static_cast<std::time_t>(ns / 1'000'000'000), "%Y-%m-%dT%H:%M:%S", TimeZone::kLocal) + micros;
  };
  ojson events = ojson::array();
  long long last = static_cast<long long>(start);
  const std::int64_t t0 = sent.empty() ? r.load->start_ns : sent.front()->scheduled_ns;
  events.push_back({{"rps", last}, {"timestamp", iso(t0)}});
  const double n = static_cast<double>(std::max<std::size_t>(sent.size(), 2) - 1);
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const double progress = static_cast<double>(i) / n;
    const double rate = exponential ? start * std::pow(end / start, progress) : start + (end - start) * progress;
    const long long now = static_cast<long long>(rate);
    for (long long v = last + 1; v <= now; ++v)
      events.push_back({{"rps", v}, {"timestamp", iso(sent[i]->scheduled_ns)}});
    last = std::max(last, now);
  }
  return events;
}

// The statistics of one metric as process_one_metric writes them: mean, median, std
// and one key per --metric-percentiles value.
void add_metric_keys(ojson& j, const char* name, const Distribution& d, const std::vector<double>& percentiles) {
  j[std::string("mean_") + name + "_ms"] = or_zero(d.mean, d.count);
  j[std::string("median_") + name + "_ms"] = or_zero(d.p50, d.count);
  j[std::string("std_") + name + "_ms"] = or_zero(d.std, d.count);
  for (double q : percentiles) {
    double v = 0;
    for (const auto& [dq, dv] : d.percentiles)
      if (dq == q) v = dv;
    j["p" + percentile_word(q) + "_" + name + "_ms"] = or_zero(v, d.count);
  }
}

}  // namespace

ojson bench_result_vllm(const BenchReport& r, const PeerResultOptions& options) {
  const ojson& s = r.settings;
  const WindowMetrics& m = r.all;
  ojson j;
  j["date"] = date_of(r);
  std::string backend = backend_of(s);
  j["endpoint_type"] = backend;
  j["backend"] = backend;
  j["label"] = r.identity.contains("label") ? r.identity["label"] : ojson();
  j["model_id"] = s.value("model_id", s.value("model", std::string()));
  // vLLM's main_async: tokenizer_id = args.tokenizer if args.tokenizer is not None else model_id.
  j["tokenizer_id"] = s.contains("tokenizer") ? s["tokenizer"] : j["model_id"];
  j["num_prompts"] = s.value("requests", std::uint64_t{0});
  if (r.identity.contains("metadata")) {
    for (const auto& [k, v] : r.identity["metadata"].items()) j[k] = v;
  }
  const double rate = s.value("rate", 0.0);
  const bool ramp = !s.value("ramp_up", std::string()).empty();
  j["request_rate"] = rate > 0 && !ramp ? ojson(rate) : ojson("inf");
  j["burstiness"] = s.contains("burstiness") ? s["burstiness"] : ojson(1.0);
  const ojson cap = max_concurrency_of(s);
  j["max_concurrency"] = cap;
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
  std::vector<double> ok_queue_ms, ok_e2e_with_queue_ms;
  ojson lists;
  if (r.load) {
    if (options.detailed) add_result_details(lists, r, true);
    add_latencies_and_queue(lists, r, s.value("mode", std::string()) == "closed_loop", ok_queue_ms,
                            ok_e2e_with_queue_ms);
    for (const char* key : {"input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times", "queue_times",
                            "generated_texts", "errors"}) {
      if (lists.contains(key)) j[key] = std::move(lists[key]);
    }
  }
  j["max_output_tokens_per_s"] = m.peak_output_per_s;
  j["max_concurrent_requests"] = m.peak_concurrent_requests;
  j["rtfx"] = 0.0;  // vLLM's inverse real-time factor: audio seconds per second, 0 without audio inputs
  if (ramp && r.load) j["rps_change_events"] = rps_change_events(r);
  const std::vector<std::string> metrics =
      options.metrics.empty() ? std::vector<std::string>{"ttft", "tpot", "itl"} : options.metrics;
  const std::vector<double> percentiles = options.percentiles.empty() ? std::vector<double>{99} : options.percentiles;
  auto chosen = [&](const char* metric) { return std::find(metrics.begin(), metrics.end(), metric) != metrics.end(); };
  for (const auto& [name, d] : {std::pair<const char*, const Distribution*>{"ttft", &m.ttft_ms},
                                {"tpot", &m.tpot_ms},
                                {"itl", &m.itl_ms},
                                {"e2el", &m.e2e_ms}}) {
    if (chosen(name)) add_metric_keys(j, name, *d, percentiles);
  }
  // vLLM measures the client-side queue only under --max-concurrency, and the
  // queue-inclusive E2EL only with a finite --request-rate.
  if (!cap.is_null() && chosen("client_queue_time"))
    add_metric_keys(j, "client_queue_time", summarize(ok_queue_ms, percentiles), percentiles);
  if (!cap.is_null() && rate > 0 && !ramp && chosen("e2el_including_client_queue"))
    add_metric_keys(j, "e2el_including_client_queue", summarize(ok_e2e_with_queue_ms, percentiles), percentiles);
  if (options.identity) j["cuprobe"] = r.identity;
  return j;
}

}  // namespace cuprobe
