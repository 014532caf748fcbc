// Waiting for an inference server to be ready: /health first, then /v1/models
// (503 = still loading). Used by `cuprobe wait` and before `cuprobe bench`.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

struct ReadinessProbe {
  bool ready = false;
  std::string state;                // "ready", "loading (/health: 503)", "not reachable (connect_refused: ...)"
  std::vector<std::string> models;  // ids from /v1/models, when it answered
};

// One look: GET /health (404 means the server has none), then GET /v1/models.
ReadinessProbe probe_readiness(const HttpUrl& server, const HttpClientConfig& client,
                               std::chrono::nanoseconds request_timeout);

struct ReadinessResult {
  bool ready = false;
  ReadinessProbe last;
  double waited_s = 0;
  int probes = 0;
};

// Probes every `interval` until ready or `timeout`; calls log(elapsed_s, state) each
// time the state changes.
ReadinessResult wait_until_ready(const HttpUrl& server, const HttpClientConfig& client,
                                 std::chrono::nanoseconds timeout, std::chrono::nanoseconds interval,
                                 const std::function<void(double, const std::string&)>& log);

}  // namespace cuprobe
