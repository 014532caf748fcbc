#include "load/request_builder.h"

#include <random>

namespace cuprobe {
namespace {

using json = nlohmann::json;

void merge(json& into, const json& fields) {
  if (!fields.is_object()) return;
  for (const auto& [key, value] : fields.items()) into[key] = value;
}

// The sampling parameters given, temperature first (as vLLM collects them into extra_body).
json given_sampling(const RequestTemplate& tpl) {
  json s = json::object();
  if (tpl.temperature) s["temperature"] = *tpl.temperature;
  merge(s, tpl.sampling);
  return s;
}

// SGLang's /generate body (sglang_client.py, SglangClient.make_request); cuprobe's
// own adds no lora/logprob fields.
json generate_body(const RequestTemplate& tpl, const Prompt& prompt) {
  json body;
  body["text"] = prompt.text;
  json sampling = json::object();
  if (tpl.style == BodyStyle::kSglang) {
    sampling = {{"temperature", tpl.temperature.value_or(0.0)},
                {"max_new_tokens", prompt.max_tokens},
                {"ignore_eos", tpl.ignore_eos}};
  } else {
    sampling["max_new_tokens"] = prompt.max_tokens;
    if (tpl.ignore_eos) sampling["ignore_eos"] = true;
  }
  merge(sampling, given_sampling(tpl));
  body["sampling_params"] = std::move(sampling);
  body["stream"] = true;
  if (tpl.style == BodyStyle::kSglang) {
    body["lora_path"] = nullptr;
    body["return_logprob"] = false;
    body["return_routed_experts"] = false;
    body["logprob_start_len"] = -1;
  }
  return body;
}

json chat_messages(const RequestTemplate& tpl, const Prompt& prompt) {
  if (!prompt.messages.is_null()) return prompt.messages;
  // vLLM sends the prompt as one text part (_get_chat_content); SGLang and cuprobe as a string.
  json content =
      tpl.style == BodyStyle::kVllm ? json::array({{{"type", "text"}, {"text", prompt.text}}}) : json(prompt.text);
  return json::array({{{"role", "user"}, {"content", std::move(content)}}});
}

// vLLM: async_request_openai_completions / async_request_openai_chat_completions.
json vllm_body(const RequestTemplate& tpl, const Prompt& prompt) {
  json body;
  body["model"] = tpl.model;
  if (tpl.api == ApiKind::kChat) {
    body["messages"] = chat_messages(tpl, prompt);
    body["max_completion_tokens"] = prompt.max_tokens;
  } else {
    body["prompt"] = prompt.text;
    body["repetition_penalty"] = 1.0;
    body["max_tokens"] = prompt.max_tokens;
    body["logprobs"] = nullptr;
  }
  body["stream"] = true;
  if (tpl.stream_options) body["stream_options"] = {{"include_usage", true}};
  if (tpl.ignore_eos) body["ignore_eos"] = true;  // _update_payload_common
  merge(body, given_sampling(tpl));               // serve.py: extra_body = {**sampling_params, **extra_body}
  return body;
}

// SGLang: serving.py async_request_openai_completions / async_request_openai_chat_completions
// (no stream_options: usage is not asked for).
json sglang_body(const RequestTemplate& tpl, const Prompt& prompt) {
  json body;
  body["model"] = tpl.model;
  if (tpl.api == ApiKind::kChat) {
    body["messages"] = chat_messages(tpl, prompt);
    body["max_completion_tokens"] = prompt.max_tokens;
    body["stream"] = true;
    body["temperature"] = 0.0;
    body["ignore_eos"] = tpl.ignore_eos;
  } else {
    body["prompt"] = prompt.text;
    body["temperature"] = 0.0;
    body["best_of"] = 1;
    body["max_tokens"] = prompt.max_tokens;
    body["stream"] = true;
    body["ignore_eos"] = tpl.ignore_eos;
  }
  if (tpl.stream_options) body["stream_options"] = {{"include_usage", true}};
  merge(body, given_sampling(tpl));
  return body;
}

json cuprobe_body(const RequestTemplate& tpl, const Prompt& prompt) {
  json body;
  if (!tpl.model.empty()) body["model"] = tpl.model;
  if (tpl.api == ApiKind::kChat)
    body["messages"] = chat_messages(tpl, prompt);
  else
    body["prompt"] = prompt.text;
  body["max_tokens"] = prompt.max_tokens;
  body["stream"] = true;
  if (tpl.stream_options) body["stream_options"] = {{"include_usage", true}};
  if (tpl.ignore_eos) body["ignore_eos"] = true;  // vLLM and SGLang extension
  merge(body, given_sampling(tpl));
  return body;
}

}  // namespace

json build_request_body(const RequestTemplate& tpl, const Prompt& prompt) {
  json body;
  if (tpl.api == ApiKind::kGenerate)
    body = generate_body(tpl, prompt);
  else if (tpl.style == BodyStyle::kVllm)
    body = vllm_body(tpl, prompt);
  else if (tpl.style == BodyStyle::kSglang)
    body = sglang_body(tpl, prompt);
  else
    body = cuprobe_body(tpl, prompt);
  merge(body, tpl.extra_body);
  return body;
}

std::string request_body_text(const RequestTemplate& tpl, const Prompt& prompt) {
  return build_request_body(tpl, prompt).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string build_http_request(const RequestTemplate& tpl, const Prompt& prompt, std::uint64_t index) {
  std::string headers = tpl.extra_headers;
  if (!tpl.request_id_prefix.empty())
    headers += "x-request-id: " + tpl.request_id_prefix + std::to_string(index) + "\r\n";
  return format_http_request("POST", tpl.path, tpl.authority, "text/event-stream", request_body_text(tpl, prompt),
                             headers, false);
}

const char* body_style_name(BodyStyle style) {
  switch (style) {
    case BodyStyle::kVllm:
      return "vllm";
    case BodyStyle::kSglang:
      return "sglang";
    case BodyStyle::kCuprobe:
      break;
  }
  return "cuprobe";
}

std::string random_request_id_prefix() {
  std::random_device rd;
  std::uniform_int_distribution<int> digit(0, 15);
  std::string hex;
  for (int i = 0; i < 8; ++i) hex += "0123456789abcdef"[digit(rd)];
  return "bench-" + hex + "-";
}

}  // namespace cuprobe
