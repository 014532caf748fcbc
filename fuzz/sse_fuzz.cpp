// The server-sent-events parser, then the stream decoder on each event. Byte 0
// picks the API (completions, chat, generate) and byte 1 a piece size; the
// rest is the stream, parsed whole, one byte at a time and in pieces: the
// three must give the same events. A pass with a tiny event cap exercises the
// overflow path (its result may depend on the split and is not compared).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "support/split_feed.h"
#include "support/sse_events.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuprobe;
  using namespace cuprobe::fuzz;
  if (size < 2) return 0;
  static constexpr ApiKind kApis[] = {ApiKind::kCompletions, ApiKind::kChat, ApiKind::kGenerate};
  ApiKind api = kApis[data[0] % 3];
  std::size_t piece = data[1] % 64 + 2;
  std::string_view stream(reinterpret_cast<const char*>(data) + 2, size - 2);

  SseParse whole = parse_sse(stream, 0);
  for (std::size_t p : {std::size_t{1}, piece}) {
    SseParse split = parse_sse(stream, p);
    if (split.sink.events != whole.sink.events) split_mismatch("the event list");
    if (split.pending != whole.pending) split_mismatch("has_pending()");
    if (split.overflowed != whole.overflowed) split_mismatch("overflowed()");
  }
  decode_all(api, whole.sink);
  parse_sse(stream, piece, data[1] % 32 + 1);
  return 0;
}
