// cuprobe report -o report.html INPUT...: the investigation as one self-contained
// HTML page (traces, run files, directories of them; a baseline, bench results
// and counter samples as extra views). `--bench R.json` without INPUT makes a
// bench page alone. Declare → plan → run (cli/parse_args.h).
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>

#include "analysis/analyze.h"
#include "analysis/diff.h"
#include "cli/hta_window_flag.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "common/atomic_file.h"
#include "common/bounded_read.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/say.h"
#include "common/version.h"
#include "import/load_profiles.h"
#include "report/html/bench_view.h"
#include "report/html/report_data.h"
#include "report/html/report_html.h"
#include "report/html/samples_view.h"

namespace cuprobe {
namespace {

// A bench result, its request lines or samples: bounded, a device refused (common/bounded_read).
std::string read_text(const std::string& path) { return read_bounded_file(path, std::uint64_t{4} << 30); }

std::string utc_now() { return clock_text(std::time(nullptr), "%Y-%m-%d %H:%M:%S UTC", TimeZone::kUtc); }

struct ReportFlags {
  std::vector<std::string> inputs;
  std::string baseline, output, bench, requests, samples, title = "cuprobe report", hta_window = "default";
  AnalyzeOptions options;
};

void declare(CLI::App& app, ReportFlags& f) {
  app.add_option("inputs", f.inputs,
                 "traces, run files, or directories of them (one file per rank); none for a bench page");
  app.add_option("-o,--output", f.output, "the HTML file to write ('-' for stdout)")->required();
  app.add_option("--baseline", f.baseline, "the run to compare against (files, comma-separated for ranks)");
  app.add_option("--bench", f.bench, "a `cuprobe bench --json` result: latency and throughput views");
  app.add_option("--requests", f.requests, "the bench's per-request lines (--save-requests): distributions over time")
      ->needs(app.get_option("--bench"));
  app.add_option("--samples", f.samples, "`cuprobe sample` output (CSV or JSONL): counters over time");
  app.add_option("--step-marker", f.options.step_marker, "annotation name (prefix) that marks one step");
  add_hta_window_flag(app, f.hta_window);
  app.add_option("--title", f.title, "the page's title");
}

struct ReportPlan {
  std::vector<std::string> inputs, baseline;  // baseline: its files, one per rank
  std::string output, bench, requests, samples, title;
  AnalyzeOptions options;
};

ReportPlan plan(const ReportFlags& f) {
  if (f.inputs.empty() && f.bench.empty())
    throw Error("give the traces (INPUT...), a bench result (--bench), or both", kExitUsage);
  if (f.inputs.empty() && !f.baseline.empty())
    throw Error("--baseline compares traces: give the traces too", kExitUsage);
  AnalyzeOptions options = f.options;
  apply_hta_window_flag(f.hta_window, options);
  return {f.inputs, split_commas(f.baseline), f.output, f.bench, f.requests, f.samples, f.title, options};
}

// What moved since the baseline (`report` is this run's analysis, of `ranks` ranks).
ReportBaseline compare_to_baseline(const ReportPlan& p, const AnalyzeReport& report, std::size_t ranks,
                                   const std::vector<std::string>& files) {
  std::vector<Profile> base_profiles = load_profiles(p.baseline);
  AnalyzeReport base = analyze_profiles(base_profiles, p.options);
  ReportBaseline b{diff_reports(base, report), profile_files(base_profiles), files, ""};
  if (base_profiles.size() != ranks) {
    b.rank_note = "The baseline has " + std::to_string(base_profiles.size()) + " rank(s), this run " +
                  std::to_string(ranks) + ": per-step figures compare different setups.";
    say("report", "warning: %s", b.rank_note.c_str());
  }
  return b;
}

// The bench and samples views, when asked for; a bench page alone names the bench's files as its inputs.
void add_bench_and_samples(const ReportPlan& p, ReportInputs& in) {
  if (!p.bench.empty()) {
    std::optional<std::string> request_lines;
    if (!p.requests.empty()) request_lines = read_text(p.requests);
    in.bench = bench_view(p.bench, read_text(p.bench), p.requests, request_lines);
    if (p.inputs.empty())
      in.inputs =
          p.requests.empty() ? std::vector<std::string>{p.bench} : std::vector<std::string>{p.bench, p.requests};
  }
  if (!p.samples.empty()) in.samples = samples_view(p.samples, read_text(p.samples));
}

int run(const ReportPlan& p) {
  std::vector<Profile> profiles = p.inputs.empty() ? std::vector<Profile>{} : load_profiles(p.inputs);
  std::vector<std::string> files = profile_files(profiles);
  AnalyzeReport report = analyze_profiles(profiles, p.options);

  ReportInputs in;
  in.inputs = files;
  in.profiles = &profiles;
  in.report = p.inputs.empty() ? nullptr : &report;
  in.version = kVersion;
  in.generated_utc = utc_now();
  if (!p.baseline.empty()) in.baseline = compare_to_baseline(p, report, profiles.size(), files);
  add_bench_and_samples(p, in);

  std::string page = render_report_html(report_data(in), p.title);
  std::vector<std::string> read = in.baseline ? in.baseline->a_files : std::vector<std::string>{};
  read.insert(read.end(), {p.bench, p.requests, p.samples});
  read.insert(read.end(), files.begin(), files.end());  // an output over any file read is refused
  AtomicFile file(p.output, read);
  file.stream() << page;
  file.commit();
  say("report", "wrote %s (%.2f MB)", p.output.c_str(), static_cast<double>(page.size()) / 1e6);
  return kExitOk;
}

int run_report(int argc, char** argv) {
  CLI::App app{
      "The investigation as one self-contained HTML page: findings, per-step bars, tables, step timelines,\n"
      "ranks side by side, counters; with --baseline what moved, with --bench latency and throughput\n"
      "(--bench without traces: a page of the bench run alone).\n"
      "The page makes no network request: it opens on an air-gapped host.",
      argv[0]};
  return declare_plan_run<ReportFlags>(app, argc, argv, declare, plan, run);
}

const VerbRegistration kRegistration{"report", "the investigation as one self-contained HTML page", &run_report};

}  // namespace
}  // namespace cuprobe
