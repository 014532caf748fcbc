// vLLM's `burstgpt` dataset: the BurstGPT trace's CSV (columns Timestamp,
// Model, Request tokens, Response tokens, Total tokens, Log Type; BurstGPT_3
// adds Session ID and Elapsed time), found by header name. As vLLM does: only
// rows of Model "GPT-4" with a positive Response tokens are kept, --num-prompts
// of them are sampled with the seed (with replacement when the file has
// fewer), and each request is a synthetic prompt of Request tokens (at least
// 1) asking for Response tokens. The timestamps are not used (vLLM's neither:
// arrivals come from --request-rate).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "load/token_counter.h"
#include "load/workload.h"

namespace cuprobe {

struct BurstGptRow {
  std::int64_t request_tokens = 0, response_tokens = 0;
};

struct BurstGptFile {
  std::vector<BurstGptRow> rows;   // the kept rows, in file order
  std::uint64_t lines = 0;         // data rows read
  std::uint64_t other_models = 0;  // skipped: Model is not GPT-4
  std::uint64_t failed = 0;        // skipped: Response tokens is 0 (a failed request)
};

// Throws InputError (FILE: line N: reason) for a missing column, a row with
// another number of fields than the header, or a token count that is not a
// non-negative integer; and when no row is kept.
BurstGptFile read_burstgpt(const std::string& path);

std::vector<Conversation> burstgpt_dataset(const BurstGptFile& file, std::uint64_t count, std::uint64_t seed,
                                           TokenCounter& counter);

}  // namespace cuprobe
