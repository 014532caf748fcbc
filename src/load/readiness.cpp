#include "load/readiness.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/clock.h"
#include "net/http_fetch.h"

namespace cuprobe {
namespace {

std::string describe_failure(const char* what, const HttpFetchResult& r) {
  if (!r.responded) return std::string("not reachable (") + what + ": " + r.error + ", " + r.detail + ")";
  return std::string(what) + " answered HTTP " + std::to_string(r.status) +
         (r.detail.empty() ? "" : " (" + r.detail + ")");
}

}  // namespace

ReadinessProbe probe_readiness(const HttpUrl& server, const HttpClientConfig& client,
                               std::chrono::nanoseconds request_timeout) {
  ReadinessProbe probe;
  HttpFetchResult health = http_fetch(server, client, "GET", server.path + "/health", "", request_timeout);
  if (!health.responded) {
    probe.state = describe_failure("/health", health);
    return probe;
  }
  if (health.status == 503) {
    probe.state = "loading (/health: 503)";
    return probe;
  }
  bool health_ok = health.status >= 200 && health.status < 300;
  if (!health_ok && health.status != 404 && health.status != 405) {
    probe.state = describe_failure("/health", health);
    return probe;
  }
  HttpFetchResult models = http_fetch(server, client, "GET", server.path + "/v1/models", "", request_timeout);
  if (!models.responded) {
    probe.state = describe_failure("/v1/models", models);
    return probe;
  }
  if (models.status == 503) {
    probe.state = "loading (/v1/models: 503)";
    return probe;
  }
  if (models.status >= 200 && models.status < 300) {
    nlohmann::json doc = nlohmann::json::parse(models.body, nullptr, false);
    if (doc.is_object() && doc.contains("data") && doc["data"].is_array()) {
      for (const auto& m : doc["data"]) {
        if (m.is_object() && m.contains("id") && m["id"].is_string()) probe.models.push_back(m["id"]);
      }
    }
    probe.ready = true;
    probe.state = "ready";
    return probe;
  }
  if (health_ok && models.status == 404) {  // a server without the OpenAI model list
    probe.ready = true;
    probe.state = "ready (/health: 200; no /v1/models)";
    return probe;
  }
  probe.state = describe_failure("/v1/models", models);
  return probe;
}

ReadinessResult wait_until_ready(const HttpUrl& server, const HttpClientConfig& client,
                                 std::chrono::nanoseconds timeout, std::chrono::nanoseconds interval,
                                 const std::function<void(double, const std::string&)>& log) {
  ReadinessResult result;
  std::int64_t start = mono_ns();
  std::int64_t deadline = start + timeout.count();
  std::string last_state;
  while (true) {
    std::int64_t now = mono_ns();
    auto per_request = std::chrono::nanoseconds(std::clamp<std::int64_t>(deadline - now, 1'000'000, 5'000'000'000));
    result.last = probe_readiness(server, client, per_request);
    ++result.probes;
    now = mono_ns();
    result.waited_s = (now - start) / 1e9;
    if (result.last.state != last_state) {
      last_state = result.last.state;
      log(result.waited_s, last_state);
    }
    if (result.last.ready) {
      result.ready = true;
      return result;
    }
    if (now + interval.count() >= deadline) {
      if (now < deadline) std::this_thread::sleep_for(std::chrono::nanoseconds(deadline - now));
      result.waited_s = (mono_ns() - start) / 1e9;
      return result;
    }
    std::this_thread::sleep_for(interval);
  }
}

}  // namespace cuprobe
