// cuprobe wait URL: polls an inference server until it is ready (/health, then
// /v1/models; 503 means still loading), saying what it sees; exit 1 on timeout.
#include <chrono>
#include <cstdio>
#include <string>

#include "cli/http_client_flags.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "common/error.h"
#include "common/secrets.h"
#include "common/units.h"
#include "load/readiness.h"
#include "load/stream_decoder.h"
#include "net/http_url.h"
#include "report/wait_report.h"

namespace cuprobe {
namespace {

struct WaitFlags {
  std::string url, timeout = "10m", interval = "1s";
  bool quiet = false;
  HttpClientFlags client;
};

void declare(CLI::App& app, WaitFlags& f) {
  app.add_option("URL", f.url, "server, e.g. http://127.0.0.1:30000 or https://host (an endpoint path is ignored)")
      ->required();
  app.add_option("--timeout", f.timeout, "give up after this long (exit 1)")->capture_default_str();
  app.add_option("--interval", f.interval, "time between probes")->capture_default_str();
  app.add_flag("-q,--quiet", f.quiet, "no progress lines on stderr");
  add_http_client_flags(app, f.client);
}

struct WaitPlan {
  HttpUrl server;
  HttpClientConfig client;
  std::chrono::nanoseconds timeout{0}, interval{0};
  bool quiet = false;
};

WaitPlan plan(const WaitFlags& f) {
  WaitPlan p;
  p.server = parse_http_url(f.url);
  take_api_endpoint(p.server.path);
  p.timeout = parse_duration(f.timeout);
  p.interval = parse_duration(f.interval);
  if (p.interval.count() <= 0) throw Error("--interval must be positive", kExitUsage);
  p.client = http_client_config(f.client, p.server);
  p.quiet = f.quiet;
  return p;
}

int run(const WaitPlan& p) {
  ReadinessResult r =
      wait_until_ready(p.server, p.client, p.timeout, p.interval, [&](double t, const std::string& state) {
        if (!p.quiet)
          std::fprintf(stderr, "[%7.1fs] %s: %s\n", t, p.server.base().c_str(), redact_secrets(state).c_str());
      });
  if (!r.ready) {
    throw Error("not ready after " + format_duration_ms(r.waited_s * 1000) + " (" + std::to_string(r.probes) +
                " probes); last seen: " + r.last.state);
  }
  std::string line = redact_secrets(wait_ready_line(p.server.base(), r));
  std::fwrite(line.data(), 1, line.size(), stdout);
  return kExitOk;
}

int run_wait(int argc, char** argv) {
  CLI::App app{"Wait until an inference server is ready: GET /health, then GET /v1/models (503 = loading)."};
  app.name(argv[0]);
  return declare_plan_run<WaitFlags>(app, argc, argv, declare, plan, run);
}

const VerbRegistration kRegistration{"wait", "wait until an inference server is ready (or time out)", &run_wait};

}  // namespace
}  // namespace cuprobe
