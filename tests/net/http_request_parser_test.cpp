#include "net/http_request_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace cuprobe {
namespace {

using State = HttpRequestParser::State;

TEST(HttpRequestParser, ReadsMethodPathAndAcceptSplitAnywhere) {
  std::string request =
      "GET /metrics?x=1 HTTP/1.1\r\nHost: h\r\naCCept: application/openmetrics-text\r\n\r\nbody or next request";
  for (std::size_t piece = 1; piece <= request.size(); ++piece) {
    HttpRequestParser p;
    for (std::size_t at = 0; at < request.size() && p.state() == State::kHead; at += piece) {
      p.feed(std::string_view(request).substr(at, piece));
    }
    ASSERT_EQ(p.state(), State::kDone) << piece;
    EXPECT_EQ(p.request().method, "GET");
    EXPECT_EQ(p.request().path, "/metrics");
    EXPECT_EQ(p.request().accept, "application/openmetrics-text");
  }
}

TEST(HttpRequestParser, AHeadMustEndWithinTheCap) {
  std::string head = "GET / HTTP/1.1\r\nX: " + std::string(20, 'a') + "\r\n\r\n";
  HttpRequestParser exact(head.size());
  EXPECT_EQ(exact.feed(head), State::kDone);
  HttpRequestParser short_by_one(head.size() - 1);
  EXPECT_EQ(short_by_one.feed(head), State::kFailed);
  EXPECT_EQ(short_by_one.error_status(), 431);

  HttpRequestParser trickle(64);  // a head that never ends fails at the cap, byte by byte too
  std::size_t fed = 0;
  while (trickle.state() == State::kHead && fed < 1000) {
    trickle.feed("a");
    ++fed;
  }
  EXPECT_EQ(trickle.state(), State::kFailed);
  EXPECT_EQ(fed, 64u);
  EXPECT_EQ(trickle.feed("\r\n\r\n"), State::kFailed) << "stays failed";
}

TEST(HttpRequestParser, WhatIsNotAnHttpRequestIs400) {
  for (const char* bad :
       {"HELLO\r\n\r\n", "GET /\r\n\r\n", "GET / FTP/1.0\r\n\r\n", "GE\tT / HTTP/1.1\r\n\r\n",
        "GET /a\nb HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", "GET / HTTP/1.1\nAccept: x\r\n\r\n"}) {
    HttpRequestParser p;
    EXPECT_EQ(p.feed(bad), State::kFailed) << bad;
    EXPECT_EQ(p.error_status(), 400) << bad;
  }
  HttpRequestParser post;
  EXPECT_EQ(post.feed("POST /metrics HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"), State::kDone);
  EXPECT_EQ(post.request().method, "POST") << "the server answers 405";
}

}  // namespace
}  // namespace cuprobe
