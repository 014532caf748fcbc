// cuprobe wait URL: polls an inference server until it is ready (/health, then
// /v1/models; 503 means still loading), saying what it sees; exit 1 on timeout.
#include <cstdio>
#include <string>

#include "cli/http_client_flags.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "common/error.h"
#include "common/units.h"
#include "load/readiness.h"
#include "load/stream_decoder.h"
#include "net/http_url.h"

namespace cuprobe {
namespace {

int run_wait(int argc, char** argv) {
  CLI::App app{"Wait until an inference server is ready: GET /health, then GET /v1/models (503 = loading)."};
  app.name(argv[0]);
  std::string url_text, timeout_text = "10m", interval_text = "1s";
  bool quiet = false;
  HttpClientFlags client_flags;
  app.add_option("URL", url_text, "server, e.g. http://127.0.0.1:30000 or https://host (an endpoint path is ignored)")
      ->required();
  app.add_option("--timeout", timeout_text, "give up after this long (exit 1)")->capture_default_str();
  app.add_option("--interval", interval_text, "time between probes")->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "no progress lines on stderr");
  add_http_client_flags(app, client_flags);
  if (auto code = parse_args(app, argc, argv)) return *code;

  HttpUrl server = parse_http_url(url_text);
  take_api_endpoint(server.path);
  auto timeout = parse_duration(timeout_text);
  auto interval = parse_duration(interval_text);
  if (interval.count() <= 0) throw Error("--interval must be positive", kExitUsage);
  const HttpClientConfig client = http_client_config(client_flags, server);
  ReadinessResult r = wait_until_ready(server, client, timeout, interval, [&](double t, const std::string& state) {
    if (!quiet) std::fprintf(stderr, "[%7.1fs] %s: %s\n", t, server.base().c_str(), state.c_str());
  });
  if (!r.ready) {
    throw Error("not ready after " + format_duration_ms(r.waited_s * 1000) + " (" + std::to_string(r.probes) +
                " probes); last seen: " + r.last.state);
  }
  std::string models;
  for (const auto& m : r.last.models) models += (models.empty() ? "" : ", ") + m;
  std::printf("ready: %s after %.1f s%s%s\n", server.base().c_str(), r.waited_s,
              models.empty() ? "" : "; models: ", models.c_str());
  return kExitOk;
}

const VerbRegistration kRegistration{"wait", "wait until an inference server is ready (or time out)", &run_wait};

}  // namespace
}  // namespace cuprobe
