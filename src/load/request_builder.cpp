#include "load/request_builder.h"

#include "common/error.h"

namespace cuprobe {

nlohmann::json build_request_body(const RequestTemplate& tpl, const Prompt& prompt) {
  nlohmann::json body;
  if (tpl.api == ApiKind::kGenerate) {
    body["text"] = prompt.text;
    nlohmann::json sampling = {{"max_new_tokens", prompt.max_tokens}, {"temperature", tpl.temperature}};
    if (tpl.ignore_eos) sampling["ignore_eos"] = true;
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
  }
  if (tpl.extra_body.is_object()) {
    for (const auto& [key, value] : tpl.extra_body.items()) body[key] = value;
  }
  return body;
}

namespace {

std::string http_request(const char* method, const std::string& path, const std::string& authority, const char* accept,
                         const std::string& json_body, const std::string& extra_headers = "") {
  std::string req;
  req.reserve(256 + json_body.size());
  req.append(method).append(" ").append(path.empty() ? "/" : path).append(" HTTP/1.1\r\nHost: ");
  req.append(authority).append("\r\nUser-Agent: cuprobe\r\nAccept: ").append(accept);
  req.append("\r\nConnection: close\r\n").append(extra_headers);
  if (json_body.empty() && std::string_view(method) == "GET") return req.append("\r\n");
  req.append("Content-Type: application/json\r\nContent-Length: ").append(std::to_string(json_body.size()));
  return req.append("\r\n\r\n").append(json_body);
}

}  // namespace

std::string header_line(const std::string& header) {
  std::size_t colon = header.find(':');
  if (colon == std::string::npos || colon == 0 || header.find_first_of("\r\n") != std::string::npos ||
      header.substr(0, colon).find_first_of(" \t") != std::string::npos) {
    throw Error("invalid header '" + header + "' (use 'Name: value')", kExitUsage);
  }
  return header + "\r\n";
}

std::string build_simple_request(const char* method, const std::string& path, const std::string& authority,
                                 const std::string& json_body, const std::string& extra_headers) {
  return http_request(method, path, authority, "*/*", json_body, extra_headers);
}

std::string build_http_request(const RequestTemplate& tpl, const Prompt& prompt) {
  return http_request("POST", tpl.path, tpl.authority, "text/event-stream", build_request_body(tpl, prompt).dump(),
                      tpl.extra_headers);
}

}  // namespace cuprobe
