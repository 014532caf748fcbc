// What the client saw of one request. Times are CLOCK_MONOTONIC ns (see clock.h);
// a report maps them to CLOCK_REALTIME with the run's offset.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace cuprobe {

struct RequestRecord {
  std::uint64_t index = 0;
  bool warmup = false;            // not measured
  std::int64_t scheduled_ns = 0;  // when the load plan wanted it sent (open loop: its arrival time)
  std::int64_t send_ns = 0;       // when the client started it (before connect)
  std::int64_t end_ns = 0;        // when it ended, success or not
  // Arrival of each event that carried generated text, up to what the request's
  // max_tokens can explain (a server that streams without end must not grow it
  // without bound); content_events counts them all.
  std::vector<std::int64_t> content_ns;
  std::int64_t content_events = 0;
  std::int64_t events = 0;          // all data events, content or not
  std::int64_t prompt_tokens = -1;  // from the server's usage; -1 = not reported
  std::int64_t completion_tokens = -1;
  std::int64_t expected_prompt_tokens = -1;  // what the prompt was built for, when known
  int http_status = 0;
  std::string response_id;
  std::string generated_text;  // only with LoadOptions::keep_text (vLLM's generated_texts)
  std::string error;           // "" = success; otherwise a reason key: "http_500", "timeout", ...
  std::string error_detail;    // one line for people

  bool ok() const { return error.empty(); }
  bool usage_reported() const { return completion_tokens >= 0; }
  std::int64_t content_count() const { return std::max(content_events, static_cast<std::int64_t>(content_ns.size())); }
  // Output tokens: the server's count when reported, else the number of content events.
  std::int64_t output_tokens() const { return completion_tokens >= 0 ? completion_tokens : content_count(); }
  std::int64_t input_tokens() const { return prompt_tokens >= 0 ? prompt_tokens : expected_prompt_tokens; }
};

}  // namespace cuprobe
