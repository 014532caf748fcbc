// The peers' --backend names (vLLM's `vllm bench serve`, SGLang's
// bench_serving): the endpoint each one posts to, its default port, and whose
// command line it comes from. Where the two peers disagree (--random-range-ratio,
// the default output length, the result format) bench follows that peer.
#pragma once

#include <optional>
#include <string>

namespace cuprobe {

enum class Peer { kNone, kVllm, kSglang };

struct BackendInfo {
  const char* name;
  const char* endpoint;  // the API path the peer appends to its base URL
  int port;              // the peer's default port for it
  Peer peer;             // whose name it is (both peers know "vllm": vLLM's)
};

// nullopt for a name neither peer has, or one bench cannot speak (embeddings, trt, ...).
std::optional<BackendInfo> find_backend(const std::string& name);
// "openai, openai-chat, vllm, sglang, ..." for messages.
std::string backend_names();

const char* peer_name(Peer peer);  // "", "vllm", "sglang"

}  // namespace cuprobe
