#include "report/bench_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/json_number.h"

namespace cuprobe {
namespace {

using ojson = nlohmann::ordered_json;

ojson distribution_json(const Distribution& d) {
  ojson j{{"count", d.count},
          {"mean", number_or_null<ojson>(d.mean, d.count)},
          {"p50", number_or_null<ojson>(d.p50, d.count)},
          {"p90", number_or_null<ojson>(d.p90, d.count)},
          {"p99", number_or_null<ojson>(d.p99, d.count)},
          {"max", number_or_null<ojson>(d.max, d.count)},
          {"std", number_or_null<ojson>(d.std, d.count)}};
  if (!d.percentiles.empty()) {
    ojson p = ojson::object();
    for (const auto& [q, v] : d.percentiles) p["p" + percentile_word(q)] = number_or_null<ojson>(v, d.count);
    j["percentiles"] = std::move(p);
  }
  return j;
}

ojson slo_json(const GoodputSlo& slo) {
  ojson j = ojson::object();
  if (slo.ttft_ms >= 0) j["ttft_ms"] = slo.ttft_ms;
  if (slo.tpot_ms >= 0) j["tpot_ms"] = slo.tpot_ms;
  if (slo.e2e_ms >= 0) j["e2e_ms"] = slo.e2e_ms;
  return j;
}

ojson goodput_json(const WindowMetrics& m, const GoodputSlo& slo) {
  return ojson{{"slo", slo_json(slo)}, {"good", m.good}, {"total", m.judged}, {"per_s", m.goodput_per_s}};
}

ojson server_metrics_json(const ServerMetricsReport& r, std::int64_t offset) {
  ojson j;
  j["valid"] = r.valid;
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.valid) return j;
  j["start_ns"] = r.start_ns + offset;
  j["end_ns"] = r.end_ns + offset;
  j["interval_s"] = r.interval_s;
  ojson gauges = ojson::array(), counters = ojson::array(), histograms = ojson::array();
  for (const ServerGauge& g : r.gauges) {
    gauges.push_back(ojson{{"name", g.name},
                           {"labels", g.labels},
                           {"type", g.type},
                           {"start", g.start},
                           {"end", g.end},
                           {"mean", g.mean}});
  }
  for (const ServerCounter& c : r.counters) {
    ojson e{{"name", c.name}, {"labels", c.labels}, {"start", c.start},
            {"end", c.end},   {"delta", c.delta},   {"per_s", c.per_s}};
    if (c.reset) e["reset"] = true;
    counters.push_back(std::move(e));
  }
  for (const ServerHistogram& h : r.histograms) {
    histograms.push_back(ojson{{"name", h.name},
                               {"labels", h.labels},
                               {"type", h.type},
                               {"count", h.count},
                               {"sum", h.sum},
                               {"mean", h.count > 0 ? ojson(h.mean) : ojson()}});
  }
  j["gauges"] = std::move(gauges);
  j["counters"] = std::move(counters);
  j["histograms"] = std::move(histograms);
  j["derived"] = r.derived;
  return j;
}

std::string fmt_value(double v) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  if (std::fabs(v) < 10) return fmt::format("{:.4g}", v);
  return fmt::format("{:.2f}", v);
}

void server_metrics_text(const ServerMetricsReport& r, std::string& out) {
  out += "\n";
  if (!r.valid) {
    out += "server metrics: " + r.note + "\n";
    return;
  }
  out += fmt::format("server metrics (/metrics, {:.2f} s between the scrapes at the steady window's start and end){}\n",
                     r.interval_s, r.note.empty() ? "" : "; " + r.note);
  std::size_t w = 24;
  for (const ServerGauge& g : r.gauges) w = std::max(w, g.name.size() + g.labels.size() + 2);
  for (const ServerCounter& c : r.counters) w = std::max(w, c.name.size() + c.labels.size() + 2);
  for (const ServerHistogram& h : r.histograms) w = std::max(w, h.name.size() + h.labels.size() + 2);
  auto row = [&](const std::string& name, const std::string& a, const std::string& b, const char* tail = "") {
    std::string text = fmt::format("  {:<{}}{:>12}{:>12}{}", name, w, a, b, tail);
    while (text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  if (!r.gauges.empty()) row("gauge", "end", "mean");
  for (const ServerGauge& g : r.gauges) row(g.name + g.labels, fmt_value(g.end), fmt_value(g.mean));
  if (!r.counters.empty()) row("counter", "delta", "per s");
  for (const ServerCounter& c : r.counters)
    row(c.name + c.labels, fmt_value(c.delta), fmt_value(c.per_s), c.reset ? " (reset)" : "");
  if (!r.histograms.empty()) row("histogram", "count", "mean");
  for (const ServerHistogram& h : r.histograms)
    row(h.name + h.labels, fmt_value(h.count), h.count > 0 ? fmt_value(h.mean) : std::string("-"));
  if (!r.derived.empty()) row("derived", "", "");
  for (const auto& [name, v] : r.derived) row(name, fmt_value(v), "");
}

ojson window_json(const WindowMetrics& m, std::int64_t offset, bool open_loop, const GoodputSlo& slo) {
  ojson j;
  j["start_ns"] = m.start_ns ? m.start_ns + offset : 0;
  j["end_ns"] = m.end_ns ? m.end_ns + offset : 0;
  j["duration_s"] = m.duration_s;
  j["completed"] = m.completed;
  j["failed"] = m.failed;
  j["errors"] = m.errors;
  j["request_per_s"] = m.request_per_s;
  j["input_tokens_per_s"] = m.input_tokens_per_s;
  j["output_tokens_per_s"] = m.output_tokens_per_s;
  j["total_tokens_per_s"] = m.total_tokens_per_s;
  j["chunks_per_s"] = m.chunks_per_s;
  j["concurrency"] = m.concurrency;
  j["peak_output_events_per_s"] = m.peak_output_per_s;
  j["peak_concurrent_requests"] = m.peak_concurrent_requests;
  j["input_tokens"] = m.input_tokens;
  j["output_tokens"] = m.output_tokens;
  j["usage_missing"] = m.usage_missing;
  j["ttft_ms"] = distribution_json(m.ttft_ms);
  j["itl_ms"] = distribution_json(m.itl_ms);
  j["tpot_ms"] = distribution_json(m.tpot_ms);
  j["e2e_ms"] = distribution_json(m.e2e_ms);
  j["tokens_per_chunk"] = distribution_json(m.tokens_per_chunk);
  if (open_loop) j["queue_ms"] = distribution_json(m.queue_ms);
  if (slo.any()) j["goodput"] = goodput_json(m, slo);
  return j;
}

ojson call_json(const ProfileCallResult& c) {
  if (!c.attempted) return ojson();
  return ojson{{"ok", c.ok},
               {"status", c.status},
               {"sent_ns", c.sent_realtime_ns},
               {"answered_ns", c.answered_realtime_ns},
               {"response", c.response}};
}

bool open_loop(const BenchReport& r) {
  return r.settings.value("rate", 0.0) > 0 || r.settings.value("ramp_up", std::string()) != "";
}

std::string fmt_ms(const Distribution& d, double Distribution::*field) {
  if (d.count == 0) return "-";
  return fmt::format("{:.2f}", d.*field);
}

// How many connections carried the requests: keep-alive reuse, and the second
// tries of requests whose kept-alive connection the server had closed.
ojson connections_json(const LoadResult& load) {
  return ojson{{"keep_alive", load.keep_alive},
               {"opened", load.connections_opened},
               {"requests_on_reused", load.requests_reused},
               {"retried_on_new", load.retries}};
}

std::string connections_line(const LoadResult& load, const ojson& settings) {
  std::string proxy = settings.contains("proxy") && settings["proxy"].is_string()
                          ? " through the proxy " + settings["proxy"].get<std::string>()
                          : "";
  if (!load.keep_alive) {
    return fmt::format(
        "connections: {} opened{}, one per request ({})", load.connections_opened, proxy,
        settings.value("keep_alive", true) ? "not kept alive through a plain-http proxy" : "--no-keep-alive");
  }
  return fmt::format(
      "connections: {} opened{} (keep-alive), {} of {} requests on a reused one, {} sent again on a new one "
      "after the server had closed theirs",
      load.connections_opened, proxy, load.requests_reused, load.records.size(), load.retries);
}

}  // namespace

double error_rate(const WindowMetrics& all) {
  std::uint64_t total = all.completed + all.failed;
  return total == 0 ? 1.0 : static_cast<double>(all.failed) / static_cast<double>(total);
}

bool error_rate_passed(const BenchReport& report) { return error_rate(report.all) <= report.max_error_rate; }

ojson bench_report_json(const BenchReport& r) {
  const LoadResult& load = *r.load;
  std::int64_t off = load.realtime_offset_ns;
  ojson j;
  j["schema"] = "cuprobe.bench/1";
  j["clock"] = "CLOCK_REALTIME ns";
  j["complete"] = !load.run_timed_out && !load.stopped;
  j["settings"] = r.settings;
  if (!r.identity.is_null()) j["identity"] = r.identity;
  std::uint64_t warmup = 0;
  for (const auto& rec : load.records) warmup += rec.warmup ? 1 : 0;
  ojson requests;
  requests["sent"] = load.records.size() - warmup;
  requests["completed"] = r.all.completed;
  requests["failed"] = r.all.failed;
  requests["warmup"] = warmup;
  requests["errors"] = r.all.errors;
  requests["error_rate"] = error_rate(r.all);
  requests["max_error_rate"] = r.max_error_rate;
  requests["passed"] = error_rate_passed(r);
  requests["usage_missing"] = r.all.usage_missing;
  j["requests"] = requests;
  j["run"] = ojson{{"start_ns", load.start_ns ? load.start_ns + off : 0},
                   {"end_ns", load.end_ns ? load.end_ns + off : 0},
                   {"issue_end_ns", load.issue_end_ns ? load.issue_end_ns + off : 0},
                   {"reads", load.reads},
                   {"reads_kernel_timestamped", load.reads_kernel_stamped},
                   {"timed_out", load.run_timed_out},
                   {"interrupted", load.stopped},
                   {"connections", connections_json(load)}};
  j["all"] = window_json(r.all, off, open_loop(r), r.metrics.goodput);
  if (r.metrics.goodput.any()) j["goodput"] = goodput_json(r.all, r.metrics.goodput);
  if (r.window.valid) {
    j["steady"] = window_json(r.steady, off, open_loop(r), r.metrics.goodput);
    j["steady"]["definition"] = "first measured request ended .. first request of the drain ended";
  } else {
    j["steady"] = ojson{{"valid", false}, {"note", r.window.note}};
  }
  if (!r.sample.is_null())
    j["sample"] = r.sample;
  else if (!r.sample_note.empty())
    j["sample"] = ojson{{"note", r.sample_note}};
  if (r.server_metrics) j["server_metrics"] = server_metrics_json(*r.server_metrics, off);
  if (r.profile) {
    const ProfileOutcome& p = *r.profile;
    ojson prof;
    prof["kind"] = p.settings.kind == ProfilerKind::kSglang ? "sglang" : "vllm";
    prof["trace_location"] = p.trace_location;
    if (!p.settings.output_dir.empty()) prof["output_dir"] = p.settings.output_dir;
    if (p.settings.num_steps > 0) prof["num_steps"] = p.settings.num_steps;
    prof["auto_stop"] = p.auto_stop;
    if (!p.note.empty()) prof["note"] = p.note;
    prof["start"] = call_json(p.start);
    prof["stop"] = call_json(p.stop);
    bool inside = r.window.valid && p.start.ok && p.start.sent_realtime_ns >= r.window.start_ns + off &&
                  (p.auto_stop || (p.stop.ok && p.stop.sent_realtime_ns <= r.window.end_ns + off));
    prof["inside_steady_window"] = inside;
    j["profile"] = prof;
  }
  return j;
}

namespace {

// The run's settings, requests and errors, before the tables.
std::string bench_summary_text(const BenchReport& r) {
  const ojson& s = r.settings;
  std::string out;
  auto line = [&](const std::string& text) { out += text + "\n"; };
  std::string load_desc = fmt::format("closed loop, concurrency {}", s.value("concurrency", 0));
  if (!s.value("ramp_up", std::string()).empty()) {
    load_desc = fmt::format("open loop, {} ramp {} -> {} req/s ({})", s.value("ramp_up", std::string()),
                            s.value("ramp_up_start_rps", 0.0), s.value("ramp_up_end_rps", 0.0),
                            s.value("arrival", std::string()));
  } else if (open_loop(r)) {
    load_desc = fmt::format("open loop {} req/s ({})", s.value("rate", 0.0), s.value("arrival", std::string()));
  }
  line(fmt::format("cuprobe bench {}{}  model {}", s.value("url", std::string()), s.value("endpoint", std::string()),
                   s.value("model", std::string()).empty() ? "-" : s.value("model", std::string())));
  line(fmt::format("load: {}; prompts: {}", load_desc, s.value("prompts", std::string())));
  if (auto notes = s.find("notes"); notes != s.end() && notes->is_array()) {
    for (const auto& note : *notes) line("note: " + note.get<std::string>());
  }
  std::uint64_t warmup = 0;
  for (const auto& rec : r.load->records) warmup += rec.warmup ? 1 : 0;
  std::string errors;
  for (const auto& [reason, n] : r.all.errors) errors += fmt::format("{}{} {}", errors.empty() ? "" : ", ", n, reason);
  line(fmt::format("requests: {} completed, {} failed{}{} (+{} warm-up); error rate {:.1f}% (max {:.1f}%): {}",
                   r.all.completed, r.all.failed, errors.empty() ? "" : ": ", errors, warmup, 100 * error_rate(r.all),
                   100 * r.max_error_rate, error_rate_passed(r) ? "ok" : "FAILED"));
  if (r.load->run_timed_out) line("run: stopped by --timeout; in-flight requests were cancelled");
  line(connections_line(*r.load, r.settings));
  if (r.all.usage_missing > 0) {
    line(
        fmt::format("token counts: {} requests had no usage from the server; their output tokens are counted "
                    "as content events",
                    r.all.usage_missing));
  }
  return out;
}

// Throughput over the whole run and the steady window.
std::string bench_throughput_text(const BenchReport& r, const WindowMetrics* const (&cols)[2]) {
  std::string out;
  auto line = [&](const std::string& text) { out += text + "\n"; };
  line(fmt::format("{:<22}{:>14}{:>14}", "", "all", "steady"));
  auto dur = [](const WindowMetrics* m) { return m ? fmt::format("{:.2f}", m->duration_s) : std::string("-"); };
  auto rate = [](const WindowMetrics* m, double WindowMetrics::*f) {
    return m ? fmt::format("{:.2f}", m->*f) : std::string("-");
  };
  line(fmt::format("{:<22}{:>14}{:>14}", "duration (s)", dur(cols[0]), dur(cols[1])));
  line(fmt::format("{:<22}{:>14}{:>14}", "completed requests", r.all.completed,
                   cols[1] ? std::to_string(cols[1]->completed) : "-"));
  line(fmt::format("{:<22}{:>14}{:>14}", "request/s", rate(cols[0], &WindowMetrics::request_per_s),
                   rate(cols[1], &WindowMetrics::request_per_s)));
  line(fmt::format("{:<22}{:>14}{:>14}", "input tok/s", rate(cols[0], &WindowMetrics::input_tokens_per_s),
                   rate(cols[1], &WindowMetrics::input_tokens_per_s)));
  line(fmt::format("{:<22}{:>14}{:>14}", "output tok/s", rate(cols[0], &WindowMetrics::output_tokens_per_s),
                   rate(cols[1], &WindowMetrics::output_tokens_per_s)));
  line(fmt::format("{:<22}{:>14}{:>14}", "total tok/s", rate(cols[0], &WindowMetrics::total_tokens_per_s),
                   rate(cols[1], &WindowMetrics::total_tokens_per_s)));
  line(fmt::format("{:<22}{:>14}{:>14}", "chunks/s", rate(cols[0], &WindowMetrics::chunks_per_s),
                   rate(cols[1], &WindowMetrics::chunks_per_s)));
  line(fmt::format("{:<22}{:>14}{:>14}", "concurrency", rate(cols[0], &WindowMetrics::concurrency),
                   rate(cols[1], &WindowMetrics::concurrency)));
  line(fmt::format("{:<22}{:>14}{:>14}", "peak output/s", rate(cols[0], &WindowMetrics::peak_output_per_s),
                   rate(cols[1], &WindowMetrics::peak_output_per_s)));
  line(fmt::format("{:<22}{:>14}{:>14}", "peak in flight", r.all.peak_concurrent_requests,
                   cols[1] ? std::to_string(cols[1]->peak_concurrent_requests) : "-"));
  if (r.metrics.goodput.any()) {
    line(fmt::format("{:<22}{:>14}{:>14}", "goodput req/s", rate(cols[0], &WindowMetrics::goodput_per_s),
                     rate(cols[1], &WindowMetrics::goodput_per_s)));
    const GoodputSlo& g = r.metrics.goodput;
    std::string slo;
    for (const auto& [name, v] :
         {std::pair{"ttft", g.ttft_ms}, std::pair{"tpot", g.tpot_ms}, std::pair{"e2e", g.e2e_ms}}) {
      if (v >= 0) slo += fmt::format("{}{} <= {} ms", slo.empty() ? "" : ", ", name, v);
    }
    line(fmt::format("goodput: {} of {} requests met {} (all of them, as vLLM)", r.all.good, r.all.judged, slo));
  }
  return out;
}

// Latency distributions over the whole run and the steady window.
std::string bench_latency_text(const BenchReport& r, const WindowMetrics* const (&cols)[2]) {
  std::string out;
  auto line = [&](const std::string& text) { out += text + "\n"; };
  std::string head = fmt::format("{:<22}{:<8}{:>10}{:>10}", "latency (ms)", "window", "mean", "std");
  for (double q : r.metrics.percentiles) head += fmt::format("{:>10}", "p" + percentile_word(q));
  line(head + fmt::format("{:>10}", "max"));
  struct Row {
    const char* name;
    Distribution WindowMetrics::*field;
  };
  std::vector<Row> rows = {{"TTFT", &WindowMetrics::ttft_ms},
                           {"ITL", &WindowMetrics::itl_ms},
                           {"TPOT", &WindowMetrics::tpot_ms},
                           {"E2E", &WindowMetrics::e2e_ms},
                           {"tokens/chunk", &WindowMetrics::tokens_per_chunk}};
  if (open_loop(r)) rows.push_back({"client queueing", &WindowMetrics::queue_ms});
  for (const Row& row : rows) {
    for (int w = 0; w < 2; ++w) {
      if (!cols[w]) continue;
      const Distribution& d = cols[w]->*row.field;
      std::string text = fmt::format("{:<22}{:<8}{:>10}{:>10}", w == 0 ? row.name : "", w == 0 ? "all" : "steady",
                                     fmt_ms(d, &Distribution::mean), fmt_ms(d, &Distribution::std));
      for (std::size_t i = 0; i < r.metrics.percentiles.size(); ++i) {
        double v = i < d.percentiles.size() ? d.percentiles[i].second : std::nan("");
        text += fmt::format("{:>10}", d.count == 0 || std::isnan(v) ? std::string("-") : fmt::format("{:.2f}", v));
      }
      line(text + fmt::format("{:>10}", fmt_ms(d, &Distribution::max)));
    }
  }
  return out;
}

// What follows the tables: the server's metrics, the profile, the counters.
std::string bench_extras_text(const BenchReport& r) {
  std::string out;
  auto line = [&](const std::string& text) { out += text + "\n"; };
  if (!r.window.valid) line("steady: " + r.window.note);
  if (r.server_metrics) server_metrics_text(*r.server_metrics, out);
  if (r.profile) {
    const ProfileOutcome& p = *r.profile;
    line("");
    std::string start = p.start.attempted ? (p.start.ok ? "started" : "start failed: " + p.start.response)
                        : p.note.empty()  ? "not started"
                                          : "not started (" + p.note + ")";
    std::string stop = p.auto_stop        ? fmt::format("stops itself after {} steps", p.settings.num_steps)
                       : p.stop.attempted ? (p.stop.ok ? "stopped" : "stop failed: " + p.stop.response)
                                          : "not stopped";
    line(fmt::format("profile ({}): {}, {}; traces: {}", p.settings.kind == ProfilerKind::kSglang ? "sglang" : "vllm",
                     start, stop, p.trace_location));
  }
  if (!r.sample_text.empty()) {
    line("");
    line("counters over the steady window:");
    out += r.sample_text;
  } else if (!r.sample_note.empty()) {
    line("");
    line("counters: " + r.sample_note);
  }
  return out;
}

}  // namespace

std::string bench_report_text(const BenchReport& r) {
  const WindowMetrics* cols[2] = {&r.all, r.window.valid ? &r.steady : nullptr};
  return bench_summary_text(r) + "\n" + bench_throughput_text(r, cols) + "\n" + bench_latency_text(r, cols) +
         bench_extras_text(r);
}

nlohmann::ordered_json request_record_json(const RequestRecord& rec, std::int64_t off) {
  ojson j;
  j["index"] = rec.index;
  j["warmup"] = rec.warmup;
  j["ok"] = rec.ok();
  if (!rec.ok()) {
    j["error"] = rec.error;
    j["error_detail"] = rec.error_detail;
  }
  j["http_status"] = rec.http_status;
  j["response_id"] = rec.response_id;
  j["scheduled_ns"] = rec.scheduled_ns + off;
  j["send_ns"] = rec.send_ns + off;
  j["end_ns"] = rec.end_ns + off;
  j["prompt_tokens"] = rec.prompt_tokens >= 0 ? ojson(rec.prompt_tokens) : ojson();
  j["completion_tokens"] = rec.completion_tokens >= 0 ? ojson(rec.completion_tokens) : ojson();
  ojson chunks = ojson::array();
  for (std::int64_t t : rec.content_ns) chunks.push_back(t + off);
  j["content_ns"] = std::move(chunks);
  j["content_events"] = rec.content_count();
  return j;
}

}  // namespace cuprobe
