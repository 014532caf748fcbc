#include "report/rank_summary_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

json rank_or_null(const std::optional<int>& rank) { return rank ? json(*rank) : json(nullptr); }

json summary_json(const RankSummary& s) {
  json keys = json::array();
  for (const CollectiveKey& k : s.keys) keys.push_back({{"name", k.name}, {"stream_order", k.stream_order}});
  json calls = json::array();  // [key, start_ns, end_ns]: the bulk of the file, kept flat
  for (const CollectiveCall& c : s.calls) calls.push_back({c.key, c.start, c.end});
  json kernels = json::array();
  for (const auto& [name, ms] : s.before.kernel_ms) kernels.push_back({name, ms});
  return {{"rank", rank_or_null(s.rank)},
          {"file", s.file},
          {"step_ms", s.step_ms},
          {"window_ms", s.window_ms},
          {"gpu_busy_share", s.gpu_busy_share},
          {"gpu_time_ms", s.gpu_time_ms},
          {"communication_ms", s.communication_ms},
          {"step_starts_ns", s.step_starts},
          {"collective_keys", std::move(keys)},
          {"collective_calls", std::move(calls)},
          {"before_arrival",
           {{"kernel_ms", std::move(kernels)},
            {"copy_ms", s.before.copy_ms},
            {"idle_ms", s.before.idle_ms},
            {"span_ms", s.before.span_ms}}}};
}

RankSummary summary_from(const json& j) {
  RankSummary s;
  if (!j.at("rank").is_null()) s.rank = j.at("rank").get<int>();
  s.file = j.at("file").get<std::string>();
  s.step_ms = j.at("step_ms").get<double>();
  s.window_ms = j.at("window_ms").get<double>();
  s.gpu_busy_share = j.at("gpu_busy_share").get<double>();
  s.gpu_time_ms = j.at("gpu_time_ms").get<double>();
  s.communication_ms = j.at("communication_ms").get<double>();
  s.step_starts = j.at("step_starts_ns").get<std::vector<TimeNs>>();
  for (const auto& k : j.at("collective_keys"))
    s.keys.push_back({k.at("name").get<std::string>(), k.at("stream_order").get<int>()});
  for (const auto& c : j.at("collective_calls")) {
    auto key = c.at(0).get<std::uint32_t>();
    if (key >= s.keys.size()) throw std::out_of_range("a collective call names key " + std::to_string(key));
    s.calls.push_back({key, c.at(1).get<TimeNs>(), c.at(2).get<TimeNs>(), 0});
  }
  const json& b = j.at("before_arrival");
  for (const auto& k : b.at("kernel_ms"))
    s.before.kernel_ms.emplace_back(k.at(0).get<std::string>(), k.at(1).get<double>());
  s.before.copy_ms = b.at("copy_ms").get<double>();
  s.before.idle_ms = b.at("idle_ms").get<double>();
  s.before.span_ms = b.at("span_ms").get<double>();
  std::sort(s.step_starts.begin(), s.step_starts.end());
  std::stable_sort(s.calls.begin(), s.calls.end(),
                   [](const CollectiveCall& x, const CollectiveCall& y) { return x.start < y.start; });
  return s;
}

}  // namespace

std::string rank_summary_file(const std::vector<RankSummary>& ranks) {
  json j;
  j["schema"] = kRankSummarySchema;
  json list = json::array();
  for (const RankSummary& s : ranks) list.push_back(summary_json(s));
  j["ranks"] = std::move(list);
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

bool is_rank_summary_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;  // a pipe's bytes are read once, by the loader
  std::ifstream in(path, std::ios::binary);
  char head[64] = {};
  in.read(head, sizeof head - 1);
  return std::string(head).find(std::string("{\"schema\":\"") + kRankSummarySchema + "\"") == 0;
}

std::vector<RankSummary> read_rank_summary_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the summary file");
  std::vector<RankSummary> out;
  try {
    json j = json::parse(in);
    if (j.at("schema") != kRankSummarySchema)
      throw InputError(path, "not a " + std::string(kRankSummarySchema) + " file");
    for (const auto& r : j.at("ranks")) out.push_back(summary_from(r));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, std::string("a damaged summary file: ") + e.what());
  } catch (const std::out_of_range& e) {
    throw InputError(path, std::string("a damaged summary file: ") + e.what());
  }
  return out;
}

}  // namespace cuprobe
