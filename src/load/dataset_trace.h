// Timed-trace replay: a JSONL trace of requests with their arrival times, in
// Mooncake's format ({"timestamp": 27482, "input_length": 6955,
// "output_length": 52, "hash_ids": [46, 47, ...]}), as vLLM's `timed_trace`
// and SGLang's `mooncake` datasets read it. Each hash id stands for a block of
// chunk_tokens prompt tokens: requests naming the same ids share the same
// text, so a prefix cache sees the trace's sharing. A request's prompt is its
// blocks in order (the last one cut so the prompt is input_length long), then,
// when its ids cover less than input_length, text of its own for the rest
// (vLLM stops at the last id). Requests are sent at their recorded times,
// relative to the earliest, times seconds_per_unit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "load/token_counter.h"
#include "load/workload.h"

namespace cuprobe {

struct TraceSpec {
  double seconds_per_unit = 1.0;   // vLLM --timed-trace-sec-multiplier; SGLang: 0.001 × --mooncake-slowdown-factor
  std::int64_t chunk_tokens = 16;  // vLLM --timed-trace-chunk-hash-size (Mooncake's traces: 512)
  std::string timestamp_field = "timestamp", input_field = "input_length", output_field = "output_length",
              hash_field = "hash_ids";
  std::uint64_t count = 0;  // the first `count` lines; 0 = all
  std::uint64_t seed = 0;
};

struct TraceRequest {
  double timestamp = 0;
  std::int64_t input_length = 0, output_length = 0;
  std::vector<std::int64_t> hash_ids;
};

// The first spec.count requests of the file, in file order. Throws InputError
// (FILE: line N: reason) for a line without a numeric timestamp, an integer
// input length >= 0, an output length >= 1, or with hash ids that are not an
// array of integers; and for a file without requests.
std::vector<TraceRequest> read_trace(const std::string& path, const TraceSpec& spec);

struct TraceWorkload {
  std::vector<Conversation> conversations;  // in send order (by timestamp, ties in file order)
  std::vector<std::int64_t> offsets_ns;     // send time of each, from the run's start
  std::uint64_t blocks = 0;                 // distinct (hash id, length) blocks of text
};

// Throws cuprobe::Error (exit 2) for a chunk size < 1 or a time scale that is
// not positive.
TraceWorkload trace_dataset(const std::vector<TraceRequest>& requests, const TraceSpec& spec, TokenCounter& counter);

}  // namespace cuprobe
