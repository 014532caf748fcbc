#include "load/dataset_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "common/error.h"
#include "load/dataset_text.h"
#include "load/jsonl_lines.h"

namespace cuprobe {

namespace {
constexpr double kMaxTraceSpanS = 30.0 * 86400;  // a replay longer than a month is a wrong unit
}  // namespace

std::vector<TraceRequest> read_trace(const std::string& path, const TraceSpec& spec) {
  std::vector<TraceRequest> requests;
  struct Full {};  // stops reading after spec.count lines
  try {
    for_each_jsonl_object(path, [&](const nlohmann::json& doc, long long line) {
      if (spec.count > 0 && requests.size() >= spec.count) throw Full{};
      TraceRequest r;
      auto ts = doc.find(spec.timestamp_field);
      if (ts == doc.end() || !ts->is_number() || !std::isfinite(ts->get<double>())) {
        throw jsonl_line_error(path, line, "needs \"" + spec.timestamp_field + "\", a number");
      }
      r.timestamp = ts->get<double>();
      for (const std::string* field : {&spec.input_field, &spec.output_field}) {
        if (!doc.contains(*field)) throw jsonl_line_error(path, line, "needs \"" + *field + "\"");
      }
      r.input_length = jsonl_int(doc, spec.input_field.c_str(), 0, 0, path, line);
      r.output_length = jsonl_int(doc, spec.output_field.c_str(), 0, 1, path, line);
      if (auto ids = doc.find(spec.hash_field); ids != doc.end()) {
        if (!ids->is_array()) throw jsonl_line_error(path, line, "\"" + spec.hash_field + "\" must be an array");
        for (const auto& id : *ids) {
          if (!id.is_number_integer())
            throw jsonl_line_error(path, line, "\"" + spec.hash_field + "\" must hold integers");
          r.hash_ids.push_back(id.get<std::int64_t>());
        }
      }
      requests.push_back(std::move(r));
    });
  } catch (const Full&) {
  }
  if (requests.empty()) throw InputError(path, "the trace has no requests");
  // Issue 39: a request years after the first waited silently (and 1e300 overflowed the clock).
  auto [lo, hi] = std::minmax_element(requests.begin(), requests.end(),
                                      [](const auto& a, const auto& b) { return a.timestamp < b.timestamp; });
  double span_s = (hi->timestamp - lo->timestamp) * spec.seconds_per_unit;
  if (!(span_s <= kMaxTraceSpanS)) {
    throw InputError(path, "its requests span " + std::to_string(std::llround(std::min(span_s, 1e18))) +
                               " s from the first to the last (over 30 days): check the timestamps' unit");
  }
  return requests;
}

TraceWorkload trace_dataset(const std::vector<TraceRequest>& requests, const TraceSpec& spec, TokenCounter& counter) {
  if (spec.chunk_tokens < 1) throw Error("--timed-trace-chunk-hash-size must be at least 1", kExitUsage);
  if (!(spec.seconds_per_unit > 0) || !std::isfinite(spec.seconds_per_unit)) {
    throw Error("the trace's time scale (--timed-trace-sec-multiplier, --mooncake-slowdown-factor) must be positive",
                kExitUsage);
  }
  // Every request: its blocks (hash id, length) and the length of its own tail.
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> block_job;
  std::vector<FitJob> jobs;
  std::vector<std::vector<std::size_t>> parts(requests.size());  // job indexes, in prompt order
  for (std::size_t i = 0; i < requests.size(); ++i) {
    std::int64_t remaining = std::max<std::int64_t>(requests[i].input_length, 1);
    for (std::int64_t id : requests[i].hash_ids) {
      if (remaining <= 0) break;
      std::int64_t size = std::min(spec.chunk_tokens, remaining);
      auto [it, added] = block_job.try_emplace({id, size}, jobs.size());
      if (added) jobs.push_back(FitJob{text_stream(spec.seed, kTraceChunk, static_cast<std::uint64_t>(id)), size, {}});
      parts[i].push_back(it->second);
      remaining -= size;
    }
    if (remaining > 0) {
      parts[i].push_back(jobs.size());
      jobs.push_back(FitJob{text_stream(spec.seed, kTraceTail, i), remaining, {}});
    }
  }
  fit_all(counter, jobs);

  std::vector<std::size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return requests[a].timestamp < requests[b].timestamp; });
  TraceWorkload out;
  out.blocks = block_job.size();
  double first = requests[order.front()].timestamp;
  for (std::size_t i : order) {
    Prompt p;
    p.expected_prompt_tokens = 0;
    for (std::size_t j : parts[i]) {
      if (!p.text.empty()) p.text += ' ';
      p.text += jobs[j].fitted.text;
      p.expected_prompt_tokens += jobs[j].fitted.tokens;
    }
    p.max_tokens = requests[i].output_length;
    out.conversations.push_back(Conversation{{std::move(p)}});
    out.offsets_ns.push_back(std::llround((requests[i].timestamp - first) * spec.seconds_per_unit * 1e9));
  }
  return out;
}

}  // namespace cuprobe
