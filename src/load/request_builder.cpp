#include "load/request_builder.h"

namespace cuprobe {

nlohmann::json build_request_body(const RequestTemplate& tpl, const Prompt& prompt) {
  nlohmann::json body;
  if (tpl.api == ApiKind::kGenerate) {
    body["text"] = prompt.text;
    nlohmann::json sampling = {{"max_new_tokens", prompt.max_tokens}, {"temperature", tpl.temperature}};
    if (tpl.ignore_eos) sampling["ignore_eos"] = true;
    if (tpl.sampling.is_object()) {
      for (const auto& [key, value] : tpl.sampling.items()) sampling[key] = value;
    }
    body["sampling_params"] = std::move(sampling);
    body["stream"] = true;
  } else {
    if (!tpl.model.empty()) body["model"] = tpl.model;
    if (tpl.api == ApiKind::kChat) {
      body["messages"] = prompt.messages.is_null()
                             ? nlohmann::json::array({{{"role", "user"}, {"content", prompt.text}}})
                             : prompt.messages;
    } else {
      body["prompt"] = prompt.text;
    }
    body["max_tokens"] = prompt.max_tokens;
    body["temperature"] = tpl.temperature;
    body["stream"] = true;
    if (tpl.stream_options) body["stream_options"] = {{"include_usage", true}};
    if (tpl.ignore_eos) body["ignore_eos"] = true;  // vLLM and SGLang extension
    if (tpl.sampling.is_object()) {
      for (const auto& [key, value] : tpl.sampling.items()) body[key] = value;
    }
  }
  if (tpl.extra_body.is_object()) {
    for (const auto& [key, value] : tpl.extra_body.items()) body[key] = value;
  }
  return body;
}

std::string build_http_request(const RequestTemplate& tpl, const Prompt& prompt, std::uint64_t index) {
  std::string headers = tpl.extra_headers;
  if (!tpl.request_id_prefix.empty())
    headers += "x-request-id: " + tpl.request_id_prefix + std::to_string(index) + "\r\n";
  return format_http_request("POST", tpl.path, tpl.authority, "text/event-stream",
                             build_request_body(tpl, prompt).dump(), headers, false);
}

}  // namespace cuprobe
