// cuprobe exporter: a long-running daemon that samples every GPU and serves
// /metrics for Prometheus (dcgm-exporter's names where DCGM has the quantity,
// cuprobe_* for the rest) and /healthz; SIGTERM or SIGINT end it cleanly.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/counter_flags.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "collect/counters/sampler_source.h"
#include "collect/device/nvml.h"
#include "common/error.h"
#include "common/say.h"
#include "common/stop_signals.h"
#include "common/units.h"
#include "common/utf8.h"
#include "common/version.h"
#include "exporter/collectors_file.h"
#include "exporter/exporter_collector.h"
#include "exporter/exporter_metrics.h"
#include "exporter/pod_resources.h"
#include "net/http_server.h"

namespace cuprobe {
namespace {

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

struct ExporterFlags {
  std::string listen = "127.0.0.1:9401", window, collectors;
  bool kubernetes = false, no_kubernetes = false;  // neither: on when the kubelet's socket is there
  std::string kubelet_socket = kKubeletPodResourcesSocket;
  CounterFlags counters;
};

void declare(CLI::App& app, ExporterFlags& f) {
  app.add_option("--listen", f.listen, "ADDR:PORT to serve /metrics and /healthz on ([::]:9401, :9401 = all)")
      ->capture_default_str();
  add_source_flag(app, f.counters);
  add_interval_flag(app, f.counters, "counter sample interval, 1ms to 10s")->capture_default_str();
  add_preset_flag(app, f.counters, "metric preset: triage, or pipes (adds per-kind tensor and FMA; costs more CPU)")
      ->capture_default_str();
  add_gpu_flag(app, f.counters, "GPUs whose counters to sample: all, or CUDA indices like 0,1 (NVML vitals: all)")
      ->capture_default_str();
  app.add_option("--window", f.window,
                 "report means over this trailing window (e.g. 30s) instead of since the previous scrape");
  app.add_option("-f,--collectors", f.collectors,
                 "dcgm-exporter counters file (FIELD, type, help): the DCGM series to serve (default: all)");
  auto* on = app.add_flag("--kubernetes", f.kubernetes,
                          "label each GPU's series with the pod, namespace and container it is given to, from the "
                          "kubelet's pod-resources API (default: on when its socket exists)");
  app.add_flag("--no-kubernetes", f.no_kubernetes, "no pod labels, even when the kubelet's socket exists")
      ->excludes(on);
  app.add_option("--pod-resources-socket", f.kubelet_socket,
                 "the kubelet's pod-resources socket (implies --kubernetes)")
      ->capture_default_str();
}

struct ExporterPlan {
  CounterPlan counters;
  ExporterOptions options;
  ListenAddress listen;
  std::vector<std::string> unknown_fields;  // of --collectors, named in one warning
  std::string collectors_path;
  std::string kubelet_socket;    // "" = no pod labels
  bool kubernetes_auto = false;  // on because the socket is there, not asked for
};

// --kubernetes: asked for (or the socket given), or on its own when the kubelet's socket is
// there; --no-kubernetes: never.
void plan_kubernetes(const ExporterFlags& f, ExporterPlan& p) {
  bool socket_given = f.kubelet_socket != kKubeletPodResourcesSocket;
  if (f.no_kubernetes) return;
  if (f.kubernetes || socket_given) {
    p.kubelet_socket = f.kubelet_socket;
    return;
  }
  struct stat st {};
  if (stat(f.kubelet_socket.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
    p.kubelet_socket = f.kubelet_socket;
    p.kubernetes_auto = true;
  }
}

ExporterPlan plan(const ExporterFlags& f) {
  ExporterPlan p;
  p.counters = plan_counters(f.counters);
  if (!f.window.empty()) {
    p.options.window_ns = parse_duration(f.window).count();
    if (p.options.window_ns <= 0) throw Error("--window must be positive", kExitUsage);
  }
  p.options.source = p.counters.source.name();
  p.options.hostname = host_name();
  p.options.version = kVersion;
  p.listen = parse_listen_address(f.listen);
  if (!f.collectors.empty()) {
    CollectorsFile file = read_collectors_file(f.collectors);  // malformed: exit 2, FILE:LINE
    p.unknown_fields = unknown_fields(file);
    p.collectors_path = f.collectors;
    p.options.selection = std::make_shared<SeriesSelection>(file);
  }
  plan_kubernetes(f, p);
  return p;
}

// One line for each thing that leaves series absent: unknown --collectors fields, NVML
// functions the driver lacks, XIDs not watched.
void log_absent(const ExporterPlan& p, const Nvml& nvml, const ExporterCollector& collector) {
  if (!p.unknown_fields.empty()) {
    std::string names;  // one short line: ten names at most, each cut (a file can name thousands, each long)
    for (std::size_t i = 0; i < std::min<std::size_t>(p.unknown_fields.size(), 10); ++i)
      names += (names.empty() ? "" : ", ") + printable_one_line(p.unknown_fields[i], 64);
    if (p.unknown_fields.size() > 10) names += ", and " + std::to_string(p.unknown_fields.size() - 10) + " more";
    say("exporter", "warning: %s: %zu field(s) cuprobe does not serve, left out: %s", p.collectors_path.c_str(),
        p.unknown_fields.size(), names.c_str());
  }
  if (!nvml.ok()) return;
  for (const auto& fn : nvml.missing_functions()) {
    say("exporter", "NVML lacks %s: the series read through it are absent", fn.c_str());
  }
  if (!collector.xid_status().empty()) {
    say("exporter", "XIDs not watched (%s): DCGM_FI_DEV_XID_ERRORS and cuprobe_xid_errors_total are absent",
        collector.xid_status().c_str());
  }
}

HttpResponse answer(const HttpRequest& req, ExporterCollector& collector, const Nvml& nvml) {
  std::string state = collector.counters_state();
  if (req.path == "/metrics") {
    bool om = accepts_openmetrics(req.accept);
    return {200, exporter_content_type(om), render_exporter_metrics(collector.scrape(), om)};
  }
  if (req.path == "/healthz") {
    return {200, "text/plain; charset=utf-8",
            "ok\nNVML: " + std::string(nvml.ok() ? "ok" : "unavailable (" + nvml.error() + ")") + "\n" + state + "\n"};
  }
  if (req.path == "/") {
    return {200, "text/plain; charset=utf-8", "cuprobe exporter: /metrics, /healthz\n"};
  }
  return {404, "text/plain; charset=utf-8", "not found: /metrics, /healthz\n"};
}

int run(const ExporterPlan& p) {
  HttpServer server(p.listen);
  const Nvml& nvml = Nvml::instance();
  const SamplerConfig config = p.counters.config;
  const CounterSource source = p.counters.source;
  ExporterCollector collector(
      p.options, [config, source] { return open_counter_sampler(config, source, false); },
      [source](int gpu) { return nvml_index_of_counter_gpu(source, gpu); }, nvml);
  collector.on_state_change([](const std::string& state) { say("exporter", "%s", state.c_str()); });
  if (!p.kubelet_socket.empty()) {
    std::string socket = p.kubelet_socket;
    collector.set_pod_lookup([socket] { return list_pod_resources(socket); });
    if (p.kubernetes_auto) {
      say("exporter", "kubernetes: %s is there: pod labels on (--no-kubernetes turns them off)", socket.c_str());
    }
  }
  StopFlag stop;
  signal(SIGPIPE, SIG_IGN);
  collector.start();
  log_absent(p, nvml, collector);
  say("exporter", "serving http://%s/metrics (NVML: %s; counters from %s)",
      ListenAddress{p.listen.host, server.port()}.text().c_str(),
      nvml.ok() ? "ok" : ("unavailable, " + nvml.error()).c_str(), source.text.c_str());
  server.serve([&](const HttpRequest& req) { return answer(req, collector, nvml); }, stop.flag());
  collector.stop();
  say("exporter", "stopped by %s", stop.signal() == SIGINT ? "SIGINT" : "SIGTERM");
  return kExitOk;
}

int run_exporter(int argc, char** argv) {
  CLI::App app{
      "Serves the GPUs' hardware counters and vital signs (power, clocks, temperature, memory, clock event "
      "reasons) for Prometheus at /metrics, with dcgm-exporter's names; /healthz answers while it runs.\n"
      "  cuprobe exporter [--listen 127.0.0.1:9401] [--source cupti|dcgm=URL] [-f COUNTERS.csv] [--kubernetes]\n"
      "Runs until SIGTERM or SIGINT.",
      "cuprobe exporter"};
  return declare_plan_run<ExporterFlags>(app, argc, argv, declare, plan, run);
}

const VerbRegistration kRegistration{"exporter", "serve GPU counters and vital signs to Prometheus (/metrics)",
                                     &run_exporter};

}  // namespace
}  // namespace cuprobe
