// The HTTP request for one bench prompt, in the shape each API expects:
// streaming on, token counts requested (stream_options.include_usage), the
// output length fixed with max_tokens and, where the server supports it,
// ignore_eos so that every request produces exactly that many tokens.
#pragma once

#include <cstdint>
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
  // Further sampling parameters (top_p, top_k, ...): top-level fields of OpenAI
  // bodies, inside sampling_params for /generate (object or null).
  nlohmann::json sampling;
  nlohmann::json extra_body;      // merged into the top-level body (object or null); wins over the above
  std::string extra_headers;      // "Name: value\r\n" lines (e.g. Authorization), see header_line()
  std::string request_id_prefix;  // non-empty: "x-request-id: PREFIX<index>" on every request (vLLM's)
};

nlohmann::json build_request_body(const RequestTemplate& tpl, const Prompt& prompt);
// `index`: the request's number in the run (its x-request-id with a prefix).
std::string build_http_request(const RequestTemplate& tpl, const Prompt& prompt, std::uint64_t index = 0);

}  // namespace cuprobe
