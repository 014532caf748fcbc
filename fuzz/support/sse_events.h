// Collects a server-sent-event stream's events, and runs each through the
// benchmark's StreamDecoder as the load generator does.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "load/stream_decoder.h"
#include "net/sse_parser.h"

namespace cuprobe::fuzz {

struct SseEvents final : SseSink {
  std::vector<std::pair<std::string, std::string>> events;
  void on_event(std::string_view event, std::string_view data) override { events.emplace_back(event, data); }
};

// The events `bytes` holds when parsed in pieces of `piece` bytes (0: whole).
struct SseParse {
  SseEvents sink;
  bool overflowed = false;
  bool pending = false;
};
SseParse parse_sse(std::string_view bytes, std::size_t piece, std::size_t max_event_bytes = 8 * 1024 * 1024);

void decode_all(ApiKind api, const SseEvents& events);

}  // namespace cuprobe::fuzz
