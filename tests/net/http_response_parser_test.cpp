#include "net/http_response_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cuprobe {
namespace {

struct Collect final : HttpBodySink {
  std::string body;
  void on_body(std::string_view d) override { body.append(d); }
};

// Feeds the response in pieces of `step` bytes.
bool feed_all(HttpResponseParser& p, Collect& c, const std::string& data, std::size_t step) {
  for (std::size_t i = 0; i < data.size(); i += step) {
    if (!p.feed(std::string_view(data).substr(i, step), c)) return false;
  }
  return true;
}

const std::string kChunked =
    "HTTP/1.1 200 OK\r\nContent-Type: Text/Event-Stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    "6\r\ndata: \r\n"
    "18;ext=1\r\n{\"x\": 1}\n\ndata: [DONE]\n\n\r\n"
    "0\r\nX-Trailer: 1\r\n\r\n";

TEST(HttpResponseParser, ChunkedSplitAtEveryByte) {
  for (std::size_t step = 1; step <= kChunked.size(); ++step) {
    HttpResponseParser p;
    Collect c;
    ASSERT_TRUE(feed_all(p, c, kChunked, step)) << step << ": " << p.error_detail();
    EXPECT_TRUE(p.done()) << step;
    EXPECT_EQ(p.status(), 200);
    EXPECT_EQ(p.content_type(), "text/event-stream");
    EXPECT_EQ(c.body, "data: {\"x\": 1}\n\ndata: [DONE]\n\n") << step;
  }
}

TEST(HttpResponseParser, ContentLengthAndExtraBytesIgnored) {
  HttpResponseParser p;
  Collect c;
  ASSERT_TRUE(p.feed("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\nhelloEXTRA", c));
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.status(), 500);
  EXPECT_EQ(c.body, "hello");
}

TEST(HttpResponseParser, BodyUntilClose) {
  HttpResponseParser p;
  Collect c;
  ASSERT_TRUE(p.feed("HTTP/1.0 200 OK\nContent-Type: text/event-stream\n\ndata: 1\n\n", c));
  EXPECT_FALSE(p.done());
  EXPECT_TRUE(p.finish_on_eof());
  EXPECT_EQ(c.body, "data: 1\n\n");
}

TEST(HttpResponseParser, InterimResponseSkipped) {
  HttpResponseParser p;
  Collect c;
  ASSERT_TRUE(p.feed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", c));
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.status(), 204);
}

TEST(HttpResponseParser, MalformedStatusLines) {
  for (const char* bad : {"HTTP/1.1 abc OK\r\n", "HTTP/2 200 OK\r\n", "GARBAGE\r\n", "HTTP/1.1 20\r\n",
                          "HTTP/1.1 2000 OK\r\n", "HTTP/1.1 099 X\r\n"}) {
    HttpResponseParser p;
    Collect c;
    EXPECT_FALSE(p.feed(bad, c)) << bad;
    EXPECT_TRUE(p.failed());
    EXPECT_EQ(p.error(), "malformed_http") << bad;
  }
}

TEST(HttpResponseParser, BadHeaders) {
  for (const char* bad : {"HTTP/1.1 200 OK\r\nno colon here\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n",
                          "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n"}) {
    HttpResponseParser p;
    Collect c;
    EXPECT_FALSE(p.feed(bad, c)) << bad;
    EXPECT_EQ(p.error(), "malformed_http");
  }
}

TEST(HttpResponseParser, HugeHeadersCapped) {
  HttpResponseParser p(HttpResponseParser::Limits{1024, 1024});
  Collect c;
  std::string big = "HTTP/1.1 200 OK\r\nX-Big: " + std::string(4096, 'a');
  // Split in pieces: the cap holds even though no single piece is too big.
  bool ok = true;
  for (std::size_t i = 0; i < big.size() && ok; i += 100) ok = p.feed(big.substr(i, 100), c);
  EXPECT_FALSE(ok);
  EXPECT_EQ(p.error(), "header_too_large");
  // Many small header lines count too.
  HttpResponseParser q(HttpResponseParser::Limits{1024, 1024});
  std::string many = "HTTP/1.1 200 OK\r\n";
  for (int i = 0; i < 200; ++i) many += "X: y\r\n";
  EXPECT_FALSE(q.feed(many, c));
  EXPECT_EQ(q.error(), "header_too_large");
}

TEST(HttpResponseParser, BrokenChunks) {
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (const std::string& bad : std::vector<std::string>{"zz\r\n", "\r\n", "fffffffffffffffff\r\n", "3\r\nabcdef\r\n",
                                                         "-1\r\n", std::string(2000, '1')}) {
    HttpResponseParser p;
    Collect c;
    EXPECT_FALSE(p.feed(head + bad, c)) << bad.substr(0, 20);
    EXPECT_EQ(p.error(), "bad_chunk") << bad.substr(0, 20);
  }
}

TEST(HttpResponseParser, TruncatedResponses) {
  for (const std::string& cut :
       std::vector<std::string>{"HTTP/1.1 200 OK\r\nContent-Le", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
                                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", ""}) {
    HttpResponseParser p;
    Collect c;
    EXPECT_TRUE(p.feed(cut, c));
    EXPECT_FALSE(p.finish_on_eof()) << cut;
    EXPECT_EQ(p.error(), "server_closed");
  }
}

TEST(HttpResponseParser, FeedAfterFailureStaysFailed) {
  HttpResponseParser p;
  Collect c;
  EXPECT_FALSE(p.feed("NOPE\r\n", c));
  EXPECT_FALSE(p.feed("HTTP/1.1 200 OK\r\n\r\n", c));
  EXPECT_FALSE(p.finish_on_eof());
}

TEST(HttpResponseParser, KeepAliveNeedsHttp11ADelimitedBodyAndNoClose) {
  struct Case {
    const char* response;
    bool keep_alive;
  };
  const Case cases[] = {
      {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", true},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", true},
      {"HTTP/1.1 204 No Content\r\n\r\n", true},
      {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", false},
      {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nconnection: Upgrade, CLOSE\r\n\r\nok", false},
      {"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false},
      {"HTTP/1.0 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok", false},
      {"HTTP/1.1 100 Continue\r\nConnection: close\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true},
  };
  for (const Case& c : cases) {
    HttpResponseParser p;
    Collect body;
    ASSERT_TRUE(p.feed(c.response, body)) << c.response;
    ASSERT_TRUE(p.done()) << c.response;
    EXPECT_EQ(p.keep_alive(), c.keep_alive) << c.response;
  }
  HttpResponseParser until_close;
  Collect body;
  until_close.feed("HTTP/1.1 200 OK\r\n\r\nbody", body);
  ASSERT_TRUE(until_close.finish_on_eof());
  EXPECT_FALSE(until_close.keep_alive());
}

}  // namespace
}  // namespace cuprobe
