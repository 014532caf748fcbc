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

// The peers' bodies, transcribed from their request functions. Every field the
// peer's code writes for a text prompt, nothing else: the comparison is of the
// whole JSON object.

RequestTemplate peer_template(BodyStyle style, ApiKind api) {
  RequestTemplate t;
  t.style = style;
  t.api = api;
  t.model = "m";
  return t;
}

// vLLM: vllm/benchmarks/lib/endpoint_request_func.py, async_request_openai_completions
// (payload) and _update_payload_common (ignore_eos when set, then extra_body, which
// serve.py main_async builds as {**sampling_params, **extra_body}).
TEST(RequestBuilderPeers, VllmCompletions) {
  RequestTemplate t = peer_template(BodyStyle::kVllm, ApiKind::kCompletions);
  t.ignore_eos = true;  // --dataset-name random: main_async sets args.ignore_eos
  EXPECT_EQ(build_request_body(t, prompt()), nlohmann::json::parse(R"({
    "model": "m", "prompt": "hello world", "repetition_penalty": 1.0, "max_tokens": 17, "logprobs": null,
    "stream": true, "stream_options": {"include_usage": true}, "ignore_eos": true})"));
  t.ignore_eos = false;  // other datasets, without --ignore-eos: no field at all
  t.temperature = 0.7;   // sampling only when given (--temperature)
  t.sampling = {{"top_p", 0.9}, {"repetition_penalty", 1.1}};
  EXPECT_EQ(build_request_body(t, prompt()), nlohmann::json::parse(R"({
    "model": "m", "prompt": "hello world", "repetition_penalty": 1.1, "max_tokens": 17, "logprobs": null,
    "stream": true, "stream_options": {"include_usage": true}, "temperature": 0.7, "top_p": 0.9})"));
}

// vLLM: async_request_openai_chat_completions; the prompt as one text part
// (_get_chat_messages / _get_chat_content), max_completion_tokens.
TEST(RequestBuilderPeers, VllmChat) {
  RequestTemplate t = peer_template(BodyStyle::kVllm, ApiKind::kChat);
  t.ignore_eos = false;
  EXPECT_EQ(build_request_body(t, prompt()), nlohmann::json::parse(R"({
    "model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "hello world"}]}],
    "max_completion_tokens": 17, "stream": true, "stream_options": {"include_usage": true}})"));
  Prompt p = prompt();  // a dataset's messages go as they are (chat_messages)
  p.messages = nlohmann::json::array({{{"role", "user"}, {"content", "hi"}}});
  EXPECT_EQ(build_request_body(t, p)["messages"], p.messages);
}

// SGLang: python/sglang/benchmark/serving.py (commit 00f9ec47),
// async_request_openai_completions: best_of 1, temperature 0.0 and ignore_eos
// (not --disable-ignore-eos) unless extra_request_body has them; no stream_options.
TEST(RequestBuilderPeers, SglangCompletions) {
  RequestTemplate t = peer_template(BodyStyle::kSglang, ApiKind::kCompletions);
  t.stream_options = false;  // plan_body: SGLang's bodies carry none
  EXPECT_EQ(build_request_body(t, prompt()), nlohmann::json::parse(R"({
    "model": "m", "prompt": "hello world", "best_of": 1, "max_tokens": 17, "stream": true,
    "temperature": 0.0, "ignore_eos": true})"));
  t.ignore_eos = false;  // --disable-ignore-eos: the field says false
  t.extra_body = {{"temperature", 0.5}};
  nlohmann::json b = build_request_body(t, prompt());
  EXPECT_EQ(b["ignore_eos"], false);
  EXPECT_EQ(b["temperature"], 0.5);
}

// SGLang: async_request_openai_chat_completions: the prompt as a string.
TEST(RequestBuilderPeers, SglangChat) {
  RequestTemplate t = peer_template(BodyStyle::kSglang, ApiKind::kChat);
  t.stream_options = false;
  EXPECT_EQ(build_request_body(t, prompt()), nlohmann::json::parse(R"({
    "model": "m", "messages": [{"role": "user", "content": "hello world"}], "max_completion_tokens": 17,
    "stream": true, "temperature": 0.0, "ignore_eos": true})"));
}

// SGLang: async_request_sglang_generate with the parser's defaults (--temperature 0.0,
// --top-p 1.0 so none, no --return-logprob, --logprob-start-len -1, no LoRA).
TEST(RequestBuilderPeers, SglangGenerate) {
  RequestTemplate t = peer_template(BodyStyle::kSglang, ApiKind::kGenerate);
  t.stream_options = false;
  EXPECT_EQ(build_request_body(t, prompt()), nlohmann::json::parse(R"({
    "text": "hello world", "sampling_params": {"temperature": 0.0, "max_new_tokens": 17, "ignore_eos": true},
    "stream": true, "lora_path": null, "return_logprob": false, "return_routed_experts": false,
    "logprob_start_len": -1})"));
  t.temperature = 0.3;
  EXPECT_EQ(build_request_body(t, prompt())["sampling_params"]["temperature"], 0.3);
}

// cuprobe's own bodies (a URL line): no sampling field unless given.
TEST(RequestBuilderPeers, CuprobeSendsNoTemperatureUnlessGiven) {
  RequestTemplate t = peer_template(BodyStyle::kCuprobe, ApiKind::kChat);
  EXPECT_EQ(build_request_body(t, prompt()), nlohmann::json::parse(R"({
    "model": "m", "messages": [{"role": "user", "content": "hello world"}], "max_tokens": 17, "stream": true,
    "stream_options": {"include_usage": true}, "ignore_eos": true})"));
}

// vLLM's request ids: x-request-id PREFIX<index>, the prefix bench-<8 hex>- by default.
TEST(RequestBuilderPeers, VllmRequestIdPrefix) {
  std::string prefix = random_request_id_prefix();
  ASSERT_EQ(prefix.size(), 15u);
  EXPECT_EQ(prefix.rfind("bench-", 0), 0u);
  EXPECT_EQ(prefix.back(), '-');
  EXPECT_EQ(prefix.find_first_not_of("0123456789abcdef", 6), 14u);
  RequestTemplate t = peer_template(BodyStyle::kVllm, ApiKind::kCompletions);
  t.path = "/v1/completions";
  t.authority = "h:1";
  t.request_id_prefix = prefix;
  EXPECT_NE(build_http_request(t, prompt(), 7).find("\r\nx-request-id: " + prefix + "7\r\n"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe
