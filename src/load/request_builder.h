// The HTTP request for one bench prompt, in the shape each API expects and, for
// a peer's line, as that peer builds it (BodyStyle): streaming on, the output
// length fixed with max_tokens (max_completion_tokens for the peers' chat
// bodies, max_new_tokens for /generate), ignore_eos where the peer sets it, a
// sampling field only where given (SGLang's bodies: temperature 0.0 unless given,
// as its client writes it).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "load/prompt_source.h"
#include "load/stream_decoder.h"
#include "net/http_request.h"
#include "net/http_url.h"

namespace cuprobe {

// Whose request bodies: cuprobe's own, vLLM's (vllm/benchmarks/lib/endpoint_request_func.py)
// or SGLang's (python/sglang/benchmark/backends/*_client.py).
enum class BodyStyle { kCuprobe, kVllm, kSglang };

struct RequestTemplate {
  ApiKind api = ApiKind::kCompletions;
  BodyStyle style = BodyStyle::kCuprobe;
  std::string path;       // full request path, e.g. "/v1/completions"
  std::string authority;  // Host header
  std::string model;      // OpenAI "model"; empty = omitted
  bool ignore_eos = true;
  bool stream_options = true;         // ask for usage with stream_options.include_usage (OpenAI APIs)
  std::optional<double> temperature;  // not sent when unset (SGLang's bodies: 0.0)
  // Further sampling parameters (top_p, top_k, ...): top-level fields of OpenAI
  // bodies, inside sampling_params for /generate (object or null).
  nlohmann::json sampling;
  nlohmann::json extra_body;      // merged into the top-level body (object or null); wins over the above
  std::string extra_headers;      // "Name: value\r\n" lines (e.g. Authorization), see header_line()
  std::string request_id_prefix;  // non-empty: "x-request-id: PREFIX<index>" on every request (vLLM's)
};

nlohmann::json build_request_body(const RequestTemplate& tpl, const Prompt& prompt);
// The body as sent: bytes that are not UTF-8 (a --model name, a prompt decoded from token ids) as U+FFFD,
// never the JSON library's exception in the middle of a run.
std::string request_body_text(const RequestTemplate& tpl, const Prompt& prompt);
// `index`: the request's number in the run (its x-request-id with a prefix).
std::string build_http_request(const RequestTemplate& tpl, const Prompt& prompt, std::uint64_t index = 0);

// "cuprobe", "vllm", "sglang".
const char* body_style_name(BodyStyle style);

// vLLM's default --request-id-prefix: "bench-" and 8 random hex digits and "-".
std::string random_request_id_prefix();

}  // namespace cuprobe
