// Random and mutated responses through the whole parsing chain (HTTP → SSE →
// stream events): whatever the bytes, each parser either accepts them or fails
// with a reason — no crash, no exception, no runaway memory (run under ASan).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "load/stream_decoder.h"
#include "net/http_response_parser.h"
#include "net/sse_parser.h"

namespace cuprobe {
namespace {

struct Chain final : HttpBodySink, SseSink {
  SseParser sse{4096};
  StreamDecoder decoder{ApiKind::kChat};
  int events = 0;
  void on_body(std::string_view d) override { sse.feed(d, *this); }
  void on_event(std::string_view event, std::string_view data) override {
    ++events;
    StreamChunk c = decoder.decode(event, data);
    if (c.kind == StreamChunk::Kind::kMalformed || c.kind == StreamChunk::Kind::kError) {
      EXPECT_FALSE(c.message.empty());
    }
  }
};

const std::string kValid =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    "58\r\ndata: "
    "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}\n\n\r\n"
    "48\r\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n\r\n"
    "e\r\ndata: [DONE]\n\n\r\n0\r\n\r\n";

void run_chain(const std::string& bytes, std::mt19937& rng) {
  HttpResponseParser http(HttpResponseParser::Limits{2048, 64});
  Chain chain;
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t n = std::uniform_int_distribution<std::size_t>(1, 64)(rng);
    if (!http.feed(std::string_view(bytes).substr(i, n), chain)) {
      EXPECT_TRUE(http.failed());
      EXPECT_FALSE(http.error().empty());
      return;
    }
    i += n;
  }
  if (!http.done() && !http.finish_on_eof()) {
    EXPECT_FALSE(http.error().empty());
  }
}

TEST(HostileInput, TheValidResponseParses) {
  HttpResponseParser http;
  Chain chain;
  ASSERT_TRUE(http.feed(kValid, chain)) << http.error_detail();
  EXPECT_TRUE(http.done());
  EXPECT_EQ(chain.events, 3);
}

TEST(HostileInput, MutatedResponsesNeverCrash) {
  std::mt19937 rng(12345);
  const std::string alphabet = "\r\n:{}[]\" 0123456789abcdefxyzdata:HTTP/1.1\\\x00\xff";
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = kValid;
    int edits = std::uniform_int_distribution<int>(1, 8)(rng);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      std::size_t at = std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng);
      char c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
      switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
        case 0:
          bytes[at] = c;
          break;
        case 1:
          bytes.insert(at, 1, c);
          break;
        case 2:
          bytes.erase(at, 1);
          break;
        default:
          bytes.insert(at, bytes.substr(at, 40));
          break;
      }
    }
    run_chain(bytes, rng);
  }
}

TEST(HostileInput, RandomBytesNeverCrash) {
  std::mt19937 rng(99);
  for (int round = 0; round < 1000; ++round) {
    std::size_t n = std::uniform_int_distribution<std::size_t>(0, 600)(rng);
    std::string bytes = round % 2 ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" : "";
    for (std::size_t i = 0; i < n; ++i) bytes += static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    run_chain(bytes, rng);
  }
}

}  // namespace
}  // namespace cuprobe
