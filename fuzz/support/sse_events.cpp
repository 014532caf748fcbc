#include "support/sse_events.h"

#include "support/input_errors_only.h"
#include "support/split_feed.h"

namespace cuprobe::fuzz {

SseParse parse_sse(std::string_view bytes, std::size_t piece, std::size_t max_event_bytes) {
  SseParse out;
  SseParser parser(max_event_bytes);
  feed_in_pieces(bytes, piece, [&](std::string_view p) { return parser.feed(p, out.sink); });
  out.overflowed = parser.overflowed();
  out.pending = parser.has_pending();
  return out;
}

void decode_all(ApiKind api, const SseEvents& events) {
  StreamDecoder decoder(api);
  input_errors_only([&] {
    for (const auto& [event, data] : events.events) decoder.decode(event, data);
  });
}

}  // namespace cuprobe::fuzz
