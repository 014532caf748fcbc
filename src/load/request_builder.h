// The HTTP request for one bench prompt, in the shape each API expects:
// streaming on, token counts requested (stream_options.include_usage), the
// output length fixed with max_tokens and, where the server supports it,
// ignore_eos so that every request produces exactly that many tokens.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "load/prompt_source.h"
#include "load/stream_decoder.h"
#include "net/http_request.h"
#include "net/http_url.h"

namespace cuprobe {

struct RequestTemplate {
  ApiKind api = ApiKind::kCompletions;
  std::string path;       // full request path, e.g. "/v1/completions"
  std::string authority;  // Host header
  std::string model;      // OpenAI "model"; empty = omitted
  bool ignore_eos = true;
  bool stream_options = true;  // ask for usage with stream_options.include_usage (OpenAI APIs)
  double temperature = 0.0;
  nlohmann::json extra_body;  // merged into the top-level body (object or null)
  std::string extra_headers;  // "Name: value\r\n" lines (e.g. Authorization), see header_line()
};

nlohmann::json build_request_body(const RequestTemplate& tpl, const Prompt& prompt);
std::string build_http_request(const RequestTemplate& tpl, const Prompt& prompt);

}  // namespace cuprobe
