#include "load/request_builder.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

Prompt prompt() {
  Prompt p;
  p.text = "hello world";
  p.max_tokens = 17;
  return p;
}

TEST(RequestBuilder, CompletionsBody) {
  RequestTemplate t;
  t.model = "m";
  auto b = build_request_body(t, prompt());
  EXPECT_EQ(b["model"], "m");
  EXPECT_EQ(b["prompt"], "hello world");
  EXPECT_EQ(b["max_tokens"], 17);
  EXPECT_EQ(b["stream"], true);
  EXPECT_EQ(b["stream_options"]["include_usage"], true);
  EXPECT_EQ(b["ignore_eos"], true);
  t.ignore_eos = false;
  t.model.clear();
  b = build_request_body(t, prompt());
  EXPECT_FALSE(b.contains("ignore_eos"));
  EXPECT_FALSE(b.contains("model"));
  t.stream_options = false;
  b = build_request_body(t, prompt());
  EXPECT_FALSE(b.contains("stream_options"));
  EXPECT_EQ(b["stream"], true);
}

TEST(RequestBuilder, ChatBodyUsesMessages) {
  RequestTemplate t;
  t.api = ApiKind::kChat;
  auto b = build_request_body(t, prompt());
  ASSERT_TRUE(b["messages"].is_array());
  EXPECT_EQ(b["messages"][0]["role"], "user");
  EXPECT_EQ(b["messages"][0]["content"], "hello world");
  Prompt p = prompt();
  p.messages = nlohmann::json::array({{{"role", "system"}, {"content", "s"}}});
  EXPECT_EQ(build_request_body(t, p)["messages"][0]["role"], "system");
}

TEST(RequestBuilder, GenerateBodyAndExtraBody) {
  RequestTemplate t;
  t.api = ApiKind::kGenerate;
  t.extra_body = {{"rid", "x"}};
  auto b = build_request_body(t, prompt());
  EXPECT_EQ(b["text"], "hello world");
  EXPECT_EQ(b["sampling_params"]["max_new_tokens"], 17);
  EXPECT_EQ(b["sampling_params"]["ignore_eos"], true);
  EXPECT_EQ(b["stream"], true);
  EXPECT_EQ(b["rid"], "x");
  EXPECT_FALSE(b.contains("stream_options"));
}

TEST(RequestBuilder, HttpRequestHasLengthAndHost) {
  RequestTemplate t;
  t.path = "/v1/completions";
  t.authority = "h:1";
  std::string req = build_http_request(t, prompt());
  EXPECT_EQ(req.rfind("POST /v1/completions HTTP/1.1\r\nHost: h:1\r\n", 0), 0u);
  std::size_t body_at = req.find("\r\n\r\n") + 4;
  std::string body = req.substr(body_at);
  EXPECT_NE(req.find("Content-Length: " + std::to_string(body.size()) + "\r\n"), std::string::npos);
}

TEST(RequestBuilder, ExtraHeaders) {
  RequestTemplate t;
  t.path = "/v1/completions";
  t.authority = "h:1";
  t.extra_headers = header_line("Authorization: Bearer k");
  std::string req = build_http_request(t, prompt());
  EXPECT_NE(req.find("\r\nAuthorization: Bearer k\r\n"), std::string::npos);
  EXPECT_LT(req.find("Authorization"), req.find("\r\n\r\n"));
}

}  // namespace
}  // namespace cuprobe
