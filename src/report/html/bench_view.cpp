#include "report/html/bench_view.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/error.h"
#include "report/html/step_timeline.h"
#include "report/json_field.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

// About 100 bins whatever the duration (a result claiming years gets as many, never billions).
double bin_seconds(double duration_s) {
  double raw = std::max(duration_s / 100.0, 0.1);
  for (double nice : {0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0}) {
    if (raw <= nice) return nice;
  }
  return std::ceil(raw / 60.0) * 60.0;
}

// b - a in ms or s without a signed overflow (the values are the file's).
double ms_between(std::int64_t a, std::int64_t b) { return (static_cast<double>(b) - static_cast<double>(a)) / 1e6; }
double s_between(std::int64_t a, std::int64_t b) { return (static_cast<double>(b) - static_cast<double>(a)) / 1e9; }

// The request timeline: [send, first token, end] in s from the first send, in order of sending; every n-th
// request beyond kBenchMaxSpans (said in "spans_sampled").
template <typename Span>
json spans_json(std::vector<Span> spans, std::int64_t t0, json& view) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.send < b.send; });
  std::size_t every = (spans.size() + kBenchMaxSpans - 1) / kBenchMaxSpans;
  if (every > 1) {
    view["spans_sampled"] =
        "requests: one in " + std::to_string(every) + " of " + std::to_string(spans.size()) + " drawn";
  }
  auto at = [t0](std::int64_t t) { return round4(s_between(t0, t)); };
  json out = json::array();
  for (std::size_t i = 0; i < spans.size(); i += std::max<std::size_t>(every, 1))
    out.push_back({at(spans[i].send), at(spans[i].first), at(spans[i].end)});
  return out;
}

json requests_view(const std::string& file, const std::string& text, const json& result) {
  std::vector<double> ttft, itl, tpot, e2e;
  struct Tokens {
    std::int64_t at_ns;
    double tokens;
  };
  std::vector<Tokens> tokens;
  struct Span {
    std::int64_t send, first, end;  // first: the first content event, or end without one
  };
  std::vector<Span> spans;
  std::int64_t t0 = INT64_MAX, t1 = INT64_MIN;
  std::istringstream lines(text);
  std::string line;
  for (long line_no = 1; std::getline(lines, line); ++line_no) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json r = json::parse(line, nullptr, false);
    if (r.is_discarded() || !r.is_object()) {
      throw InputError(file,
                       "line " + std::to_string(line_no) + ": not a JSON object (expected --save-requests lines)");
    }
    if (json_get(r, "warmup", false) || !json_get(r, "ok", false)) continue;
    auto send = json_get(r, "send_ns", std::int64_t{0}), end = json_get(r, "end_ns", std::int64_t{0});
    std::vector<std::int64_t> content;
    if (const json& c = json_at(r, "content_ns"); c.is_array()) {
      for (const auto& t : c) {
        if (t.is_number()) content.push_back(json_as(t, std::int64_t{0}));
      }
    }
    t0 = std::min(t0, send);
    t1 = std::max(t1, end);
    e2e.push_back(round4(ms_between(send, end)));
    spans.push_back({send, content.empty() ? end : content.front(), end});
    if (content.empty()) continue;
    ttft.push_back(round4(ms_between(send, content.front())));
    for (std::size_t i = 1; i < content.size(); ++i) itl.push_back(round4(ms_between(content[i - 1], content[i])));
    double out_tokens = json_get(r, "completion_tokens", static_cast<double>(content.size()));
    if (out_tokens > 1) tpot.push_back(round4(ms_between(content.front(), end) / (out_tokens - 1)));
    for (auto t : content) tokens.push_back({t, out_tokens / static_cast<double>(content.size())});
  }
  json j;
  if (t0 > t1) {
    j["ttft_ms"] = j["itl_ms"] = j["tpot_ms"] = j["e2e_ms"] = json::array();
    j["t_s"] = j["tokens_per_s"] = j["spans"] = json::array();
    j["bin_s"] = 1;
    return j;
  }
  if (itl.size() > kBenchMaxItl) {
    std::size_t every = (itl.size() + kBenchMaxItl - 1) / kBenchMaxItl;
    std::vector<double> kept;
    for (std::size_t i = 0; i < itl.size(); i += every) kept.push_back(itl[i]);
    j["itl_sampled"] = "ITL: one value in " + std::to_string(every) + " of " + std::to_string(itl.size()) + " shown";
    itl = std::move(kept);
  }
  double duration_s = s_between(t0, t1);
  double bin = bin_seconds(duration_s);
  auto bins = static_cast<std::size_t>(std::ceil(duration_s / bin)) + 1;
  std::vector<double> per_bin(bins, 0);
  for (const auto& t : tokens) {
    double b = std::clamp(s_between(t0, t.at_ns) / bin, 0.0, static_cast<double>(bins - 1));
    per_bin[static_cast<std::size_t>(b)] += t.tokens;
  }
  json ts = json::array(), rate = json::array();
  for (std::size_t b = 0; b < bins; ++b) {
    ts.push_back(round4((static_cast<double>(b) + 0.5) * bin));
    rate.push_back(round4(per_bin[b] / bin));
  }
  j["ttft_ms"] = ttft;
  j["itl_ms"] = itl;
  j["tpot_ms"] = tpot;
  j["e2e_ms"] = e2e;
  j["bin_s"] = bin;
  j["spans"] = spans_json(spans, t0, j);
  j["t_s"] = std::move(ts);
  j["tokens_per_s"] = std::move(rate);
  const json& steady = json_at(result, "steady");
  auto steady_start = json_get(steady, "start_ns", std::int64_t{0}),
       steady_end = json_get(steady, "end_ns", steady_start);
  if (steady_start > 0) j["steady"] = {round4(s_between(t0, steady_start)), round4(s_between(t0, steady_end))};
  return j;
}

}  // namespace

nlohmann::ordered_json bench_view(const std::string& result_file, const std::string& result_text,
                                  const std::string& requests_file, const std::optional<std::string>& requests_text) {
  json result = json::parse(result_text, nullptr, false);
  if (result.is_discarded() || !result.is_object()) throw InputError(result_file, "not JSON (expected a bench result)");
  if (json_get(result, "schema", std::string()) != "cuprobe.bench/1") {
    throw InputError(result_file, "schema is not cuprobe.bench/1 (write it with `cuprobe bench --json`)");
  }
  json j;
  j["file"] = result_file;
  if (const json& start = json_at(json_at(result, "run"), "start_ns"); start.is_number_integer())
    j["run_start_ns"] = json_as(start, std::int64_t{0});
  j["summary"] = {{"requests", json_at(result, "requests")},
                  {"all", json_at(result, "all")},
                  {"steady", json_at(result, "steady")}};
  // Goodput (--goodput) and the server's /metrics (--server-metrics), as the result has them.
  if (const json& goodput = json_at(result, "goodput"); !goodput.is_null()) j["goodput"] = goodput;
  if (const json& metrics = json_at(result, "server_metrics"); !metrics.is_null()) j["server_metrics"] = metrics;
  j["requests"] = requests_text ? requests_view(requests_file, *requests_text, result) : json();
  return j;
}

}  // namespace cuprobe
