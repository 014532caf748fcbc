#include "cli/bench_backend.h"

namespace cuprobe {
namespace {

// vLLM: vllm/benchmarks/lib/endpoint_request_func.py (ASYNC_REQUEST_FUNCS) and
// serve.py (--endpoint default /v1/completions, --port 8000). SGLang:
// python/sglang/benchmark/serving.py (ASYNC_REQUEST_FUNCS, _BACKEND_API_PATHS and
// the default port of each backend in run_benchmark).
constexpr BackendInfo kBackends[] = {
    {"openai", "/v1/completions", 8000, Peer::kVllm},
    {"openai-chat", "/v1/chat/completions", 8000, Peer::kVllm},
    {"vllm", "/v1/completions", 8000, Peer::kVllm},
    {"sglang", "/generate", 30000, Peer::kSglang},
    {"sglang-native", "/generate", 30000, Peer::kSglang},
    {"sglang-oai", "/v1/completions", 30000, Peer::kSglang},
    {"sglang-oai-chat", "/v1/chat/completions", 30000, Peer::kSglang},
    {"vllm-chat", "/v1/chat/completions", 30000, Peer::kSglang},
    {"lmdeploy", "/v1/completions", 23333, Peer::kSglang},
    {"lmdeploy-chat", "/v1/chat/completions", 30000, Peer::kSglang},
};

}  // namespace

std::optional<BackendInfo> find_backend(const std::string& name) {
  for (const BackendInfo& b : kBackends) {
    if (name == b.name) return b;
  }
  return std::nullopt;
}

std::string backend_names() {
  std::string out;
  for (const BackendInfo& b : kBackends) out += (out.empty() ? "" : ", ") + std::string(b.name);
  return out;
}

const char* peer_name(Peer peer) {
  switch (peer) {
    case Peer::kVllm:
      return "vllm";
    case Peer::kSglang:
      return "sglang";
    case Peer::kNone:
      break;
  }
  return "";
}

}  // namespace cuprobe
