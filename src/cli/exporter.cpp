// cuprobe exporter: a long-running daemon that samples every GPU and serves
// /metrics for Prometheus (dcgm-exporter's names where DCGM has the quantity,
// cuprobe_* for the rest) and /healthz; SIGTERM or SIGINT end it cleanly.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "cli/parse_args.h"
#include "cli/sampler_flags.h"
#include "cli/verb.h"
#include "collect/counters/metric_presets.h"
#include "collect/counters/sampler_source.h"
#include "collect/device/nvml.h"
#include "common/error.h"
#include "common/stop_signals.h"
#include "common/units.h"
#include "common/version.h"
#include "exporter/exporter_collector.h"
#include "exporter/exporter_metrics.h"
#include "net/http_server.h"

namespace cuprobe {
namespace {

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

int run_exporter(int argc, char** argv) {
  CLI::App app{
      "Serves the GPUs' hardware counters and vital signs (power, clocks, temperature, memory, clock event "
      "reasons) for Prometheus at /metrics, with dcgm-exporter's names; /healthz answers while it runs.\n"
      "  cuprobe exporter [--listen 127.0.0.1:9401] [--source cupti|dcgm=URL]\n"
      "Runs until SIGTERM or SIGINT.",
      "cuprobe exporter"};
  std::string listen_text = "127.0.0.1:9401", interval_text = "100ms", preset = "triage", gpu_text = "all";
  std::string window_text, source_text = "cupti";
  app.add_option("--listen", listen_text, "ADDR:PORT to serve /metrics and /healthz on ([::]:9401, :9401 = all)")
      ->capture_default_str();
  add_counter_source_option(app, source_text);
  app.add_option("--interval", interval_text, "counter sample interval, 1ms to 10s")->capture_default_str();
  app.add_option("--preset", preset, "metric preset: triage, or pipes (adds per-kind tensor and FMA; costs more CPU)")
      ->check(CLI::IsMember(preset_names()))
      ->capture_default_str();
  app.add_option("--gpu", gpu_text, "GPUs whose counters to sample: all, or CUDA indices like 0,1 (NVML vitals: all)")
      ->capture_default_str();
  app.add_option("--window", window_text,
                 "report means over this trailing window (e.g. 30s) instead of since the previous scrape");
  if (auto code = parse_args(app, argc, argv)) return *code;

  SamplerConfig config = sampler_config_from_flags(gpu_text, interval_text, preset);
  CounterSource source = parse_counter_source(source_text);
  ExporterOptions options;
  if (!window_text.empty()) {
    options.window_ns = parse_duration(window_text).count();
    if (options.window_ns <= 0) throw Error("--window must be positive", kExitUsage);
  }
  options.source = source.name();
  options.hostname = host_name();
  options.version = kVersion;
  HttpServer server(parse_listen_address(listen_text));

  const Nvml& nvml = Nvml::instance();
  ExporterCollector collector(
      options, [config, source] { return open_counter_sampler(config, source, false); },
      [source](int gpu) { return nvml_index_of_counter_gpu(source, gpu); }, nvml);
  collector.on_state_change(
      [](const std::string& state) { std::fprintf(stderr, "cuprobe exporter: %s\n", state.c_str()); });
  StopFlag stop;
  signal(SIGPIPE, SIG_IGN);
  collector.start();
  std::fprintf(stderr, "cuprobe exporter: serving http://%s/metrics (NVML: %s; counters from %s)\n",
               ListenAddress{parse_listen_address(listen_text).host, server.port()}.text().c_str(),
               nvml.ok() ? "ok" : ("unavailable, " + nvml.error()).c_str(), source.text.c_str());
  server.serve(
      [&](const HttpRequest& req) -> HttpResponse {
        std::string state = collector.counters_state();
        if (req.path == "/metrics") {
          bool om = accepts_openmetrics(req.accept);
          return {200, exporter_content_type(om), render_exporter_metrics(collector.scrape(), om)};
        }
        if (req.path == "/healthz") {
          return {200, "text/plain; charset=utf-8",
                  "ok\nNVML: " + std::string(nvml.ok() ? "ok" : "unavailable (" + nvml.error() + ")") + "\n" + state +
                      "\n"};
        }
        if (req.path == "/") {
          return {200, "text/plain; charset=utf-8", "cuprobe exporter: /metrics, /healthz\n"};
        }
        return {404, "text/plain; charset=utf-8", "not found: /metrics, /healthz\n"};
      },
      stop.flag());
  collector.stop();
  std::fprintf(stderr, "cuprobe exporter: stopped by %s\n", stop.signal() == SIGINT ? "SIGINT" : "SIGTERM");
  return kExitOk;
}

const VerbRegistration kRegistration{"exporter", "serve GPU counters and vital signs to Prometheus (/metrics)",
                                     &run_exporter};

}  // namespace
}  // namespace cuprobe
