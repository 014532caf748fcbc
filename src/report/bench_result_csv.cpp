#include <fmt/format.h>

#include <cmath>

#include "report/bench_result.h"

namespace cuprobe {
namespace {

const char* const kLatencies[] = {"ttft", "tpot", "itl", "e2e"};

std::string number(double v, std::size_t count = 1) {
  return count == 0 || !std::isfinite(v) ? std::string() : fmt::format("{}", v);
}

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string bench_result_csv_header(const std::vector<double>& percentiles) {
  std::string h =
      "label,start_time,host,cuprobe_version,model,endpoint,mode,rate,burstiness,concurrency,duration_s,completed,"
      "failed,input_tokens,output_tokens,request_per_s,output_tokens_per_s,total_tokens_per_s,goodput_per_s,"
      "concurrency_measured,peak_output_events_per_s";
  for (const char* name : kLatencies) {
    h += fmt::format(",mean_{0}_ms,std_{0}_ms", name);
    for (double q : percentiles) h += fmt::format(",p{}_{}_ms", percentile_word(q), name);
  }
  return h + "\n";
}

std::string bench_result_csv_row(const BenchReport& r) {
  const auto& s = r.settings;
  const auto& id = r.identity;
  const WindowMetrics& m = r.all;
  std::string row = fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", field(id.value("label", std::string())),
      id.value("start_time", std::string()), field(id.value("host", std::string())),
      id.value("cuprobe_version", std::string()), field(s.value("model", std::string())),
      field(s.value("endpoint", std::string())), s.value("mode", std::string()), number(s.value("rate", 0.0)),
      (s.contains("burstiness") && s["burstiness"].is_number() ? number(s["burstiness"].get<double>()) : "inf"),
      s.value("concurrency", 0), number(m.duration_s), m.completed, m.failed, number(m.input_tokens),
      number(m.output_tokens), number(m.request_per_s), number(m.output_tokens_per_s), number(m.total_tokens_per_s),
      r.metrics.goodput.any() ? number(m.goodput_per_s) : std::string(), number(m.concurrency),
      number(m.peak_output_per_s));
  for (const Distribution* d : {&m.ttft_ms, &m.tpot_ms, &m.itl_ms, &m.e2e_ms}) {
    row += "," + number(d->mean, d->count) + "," + number(d->std, d->count);
    for (std::size_t i = 0; i < r.metrics.percentiles.size(); ++i) {
      row += "," + (i < d->percentiles.size() ? number(d->percentiles[i].second, d->count) : std::string());
    }
  }
  return row + "\n";
}

}  // namespace cuprobe
