#include "report/html/bench_view.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/error.h"
#include "report/html/step_timeline.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

double bin_seconds(double duration_s) {
  double raw = std::max(duration_s / 100.0, 0.1);
  for (double nice : {0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0}) {
    if (raw <= nice) return nice;
  }
  return 60.0;
}

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
  auto at = [t0](std::int64_t t) { return round4(static_cast<double>(t - t0) / 1e9); };
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
    if (r.value("warmup", false) || !r.value("ok", false)) continue;
    auto send = r.value("send_ns", std::int64_t{0}), end = r.value("end_ns", std::int64_t{0});
    std::vector<std::int64_t> content;
    if (r.contains("content_ns") && r["content_ns"].is_array()) {
      for (const auto& c : r["content_ns"]) {
        if (c.is_number()) content.push_back(c.get<std::int64_t>());
      }
    }
    t0 = std::min(t0, send);
    t1 = std::max(t1, end);
    e2e.push_back(round4(static_cast<double>(end - send) / 1e6));
    spans.push_back({send, content.empty() ? end : content.front(), end});
    if (content.empty()) continue;
    ttft.push_back(round4(static_cast<double>(content.front() - send) / 1e6));
    for (std::size_t i = 1; i < content.size(); ++i)
      itl.push_back(round4(static_cast<double>(content[i] - content[i - 1]) / 1e6));
    double out_tokens = r.contains("completion_tokens") && r["completion_tokens"].is_number()
                            ? r["completion_tokens"].get<double>()
                            : static_cast<double>(content.size());
    if (out_tokens > 1) tpot.push_back(round4(static_cast<double>(end - content.front()) / 1e6 / (out_tokens - 1)));
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
  double duration_s = static_cast<double>(t1 - t0) / 1e9;
  double bin = bin_seconds(duration_s);
  auto bins = static_cast<std::size_t>(std::ceil(duration_s / bin)) + 1;
  std::vector<double> per_bin(bins, 0);
  for (const auto& t : tokens) {
    auto b = static_cast<std::size_t>(std::max(0.0, static_cast<double>(t.at_ns - t0) / 1e9 / bin));
    per_bin[std::min(b, bins - 1)] += t.tokens;
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
  const json& steady = result.contains("steady") ? result["steady"] : json();
  if (steady.is_object() && steady.contains("start_ns") && steady["start_ns"].is_number() &&
      steady["start_ns"].get<std::int64_t>() > 0) {
    j["steady"] = {round4(static_cast<double>(steady["start_ns"].get<std::int64_t>() - t0) / 1e9),
                   round4(static_cast<double>(steady["end_ns"].get<std::int64_t>() - t0) / 1e9)};
  }
  return j;
}

}  // namespace

nlohmann::ordered_json bench_view(const std::string& result_file, const std::string& result_text,
                                  const std::string& requests_file, const std::optional<std::string>& requests_text) {
  json result = json::parse(result_text, nullptr, false);
  if (result.is_discarded() || !result.is_object()) throw InputError(result_file, "not JSON (expected a bench result)");
  if (result.value("schema", "") != "cuprobe.bench/1") {
    throw InputError(result_file, "schema is not cuprobe.bench/1 (write it with `cuprobe bench --json`)");
  }
  json j;
  j["file"] = result_file;
  const json& run = result.contains("run") ? result["run"] : json();
  if (run.is_object() && run.contains("start_ns") && run["start_ns"].is_number_integer())
    j["run_start_ns"] = run["start_ns"].get<std::int64_t>();
  j["summary"] = {{"requests", result.value("requests", json())},
                  {"all", result.value("all", json())},
                  {"steady", result.value("steady", json())}};
  // Goodput (--goodput) and the server's /metrics (--server-metrics), as the result has them.
  if (result.contains("goodput")) j["goodput"] = result["goodput"];
  if (result.contains("server_metrics")) j["server_metrics"] = result["server_metrics"];
  j["requests"] = requests_text ? requests_view(requests_file, *requests_text, result) : json();
  return j;
}

}  // namespace cuprobe
