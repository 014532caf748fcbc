#include "report/rank_summary_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "report/json_field.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

json rank_or_null(const std::optional<int>& rank) { return rank ? json(*rank) : json(nullptr); }

json summary_json(const RankSummary& s) {
  json keys = json::array();
  for (const CollectiveKey& k : s.keys)
    keys.push_back({{"name", k.name}, {"stream_order", k.stream_order}, {"communicator", k.communicator}});
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

// One rank of a summary file, every value through the checked accessor: a
// missing key or a value of another type is one InputError naming the file and
// the key (e.g. "ranks[2].step_ms: missing"), never the JSON library's words.
RankSummary summary_from(const json& j, const std::string& path, const std::string& where, bool v1) {
  auto need_ms = [&](const json& in, std::string_view key, const std::string& at) {
    return json_need<double>(in, key, path, at);
  };
  RankSummary s;
  if (!json_at(j, "rank").is_null()) s.rank = json_need<int>(j, "rank", path, where);
  s.file = json_need<std::string>(j, "file", path, where);
  s.step_ms = need_ms(j, "step_ms", where);
  s.window_ms = need_ms(j, "window_ms", where);
  s.gpu_busy_share = need_ms(j, "gpu_busy_share", where);
  s.gpu_time_ms = need_ms(j, "gpu_time_ms", where);
  s.communication_ms = need_ms(j, "communication_ms", where);
  const json& starts = json_need_list(j, "step_starts_ns", path, where);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    s.step_starts.push_back(
        json_need_value<TimeNs>(starts[i], path, where + ".step_starts_ns[" + std::to_string(i) + "]"));
  }
  const json& keys = json_need_list(j, "collective_keys", path, where);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    std::string at = where + ".collective_keys[" + std::to_string(i) + "]";
    s.keys.push_back({json_need<std::string>(keys[i], "name", path, at),
                      json_need<int>(keys[i], "stream_order", path, at),
                      v1 ? std::string() : json_need<std::string>(keys[i], "communicator", path, at)});
  }
  const json& calls = json_need_list(j, "collective_calls", path, where);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    std::string at = where + ".collective_calls[" + std::to_string(i) + "]";
    const json& c = calls[i];
    if (!c.is_array() || c.size() != 3) throw InputError(path, at + ": expected a list [key, start_ns, end_ns]");
    auto key = json_need_value<std::uint32_t>(c[0], path, at + "[0]");
    if (key >= s.keys.size()) {
      throw InputError(path, at + ": names collective key " + std::to_string(key) + ", but the file lists " +
                                 std::to_string(s.keys.size()));
    }
    s.calls.push_back(
        {key, json_need_value<TimeNs>(c[1], path, at + "[1]"), json_need_value<TimeNs>(c[2], path, at + "[2]"), 0});
  }
  std::string before = where + ".before_arrival";
  const json& b = json_at(j, "before_arrival");
  if (!b.is_object()) throw InputError(path, before + ": expected an object, found " + json_found_words(b));
  const json& kernels = json_need_list(b, "kernel_ms", path, before);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    std::string at = before + ".kernel_ms[" + std::to_string(i) + "]";
    const json& k = kernels[i];
    if (!k.is_array() || k.size() != 2) throw InputError(path, at + ": expected a list [name, ms]");
    s.before.kernel_ms.emplace_back(json_need_value<std::string>(k[0], path, at + "[0]"),
                                    json_need_value<double>(k[1], path, at + "[1]"));
  }
  s.before.copy_ms = need_ms(b, "copy_ms", before);
  s.before.idle_ms = need_ms(b, "idle_ms", before);
  s.before.span_ms = need_ms(b, "span_ms", before);
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
  // Any version: one this build cannot read is refused by read_rank_summary_file, naming it.
  return std::string(head).find("{\"schema\":\"cuprobe.rank-summary/") == 0;
}

std::vector<RankSummary> read_rank_summary_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the summary file");
  json j;
  try {
    j = json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, "a damaged summary file: " + json_error_words(e));
  }
  const json& schema = json_at(j, "schema");
  const bool v1 = schema == kRankSummarySchemaV1;
  if (schema != kRankSummarySchema && !v1) {
    std::string named = schema.is_string() ? "schema \"" + schema.get<std::string>() + "\"" : "no schema";
    throw InputError(path, "not a " + std::string(kRankSummarySchema) + " (or /1) file: " + named);
  }
  const json& ranks = json_need_list(j, "ranks", path);
  std::vector<RankSummary> out;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    out.push_back(summary_from(ranks[i], path, "ranks[" + std::to_string(i) + "]", v1));
  return out;
}

}  // namespace cuprobe
