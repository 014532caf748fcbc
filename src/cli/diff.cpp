// cuprobe diff A B: step time before and after, and what moved.
#include "analysis/diff.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "analysis/analyze.h"
#include "cli/csv_dir.h"
#include "cli/hta_window_flag.h"
#include "cli/parse_args.h"
#include "cli/peak_flag.h"
#include "cli/verb.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/say.h"
#include "import/load_profiles.h"
#include "report/analyze_json.h"
#include "report/diff_report.h"

namespace cuprobe {
namespace {

// "5%" or "5" -> 5; anything else is a usage error.
double parse_percent(const std::string& text) {
  std::string s = text;
  if (!s.empty() && s.back() == '%') s.pop_back();
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (s.empty() || used != s.size() || !std::isfinite(v) || v < 0) {
    throw Error("--fail-if-slower: '" + text + "' is not a percentage (e.g. 5% or 5)", kExitUsage);
  }
  return v;
}

std::string label(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f;
  return out;
}

struct DiffFlags {
  std::string a, b, fail_if_slower, metric = "gpu", peak, hta_window = "default", csv_dir;
  AnalyzeOptions options;
  bool json = false, force = false;
  std::size_t top = 12;
};

void declare(CLI::App& app, DiffFlags& f) {
  app.add_option("A", f.a, "before: trace file(s), comma-separated for ranks")->required();
  app.add_option("B", f.b, "after: trace file(s), comma-separated for ranks")->required();
  app.add_option("--step-marker", f.options.step_marker, "annotation name (prefix) that marks one step");
  add_hta_window_flag(app, f.hta_window);
  app.add_flag("--json", f.json, "print the cuprobe.diff/1 JSON report");
  app.add_option("--csv", f.csv_dir,
                 "also write changes.csv (every row of what moved) and hta_overlap.csv (HTA's communication overlap\n"
                 "per rank and side) into DIR (created if missing)");
  app.add_option("--top", f.top, "changes to list (default 12)");
  add_peak_flag(app, f.peak);
  app.add_option("--fail-if-slower", f.fail_if_slower,
                 "exit 4 when B is slower than A by more than PCT (5% or 5), by --metric");
  app.add_option("--metric", f.metric, "what the gate compares: gpu (GPU time per step, default) or step (step time)")
      ->check(CLI::IsMember({"gpu", "step"}));
  app.add_flag("--force", f.force, "compare sides with different rank counts (warns instead of refusing)");
}

struct DiffPlan {
  std::vector<std::string> a_files, b_files;
  std::string csv_dir;
  AnalyzeOptions options;
  std::optional<double> limit_pct;  // --fail-if-slower
  std::string metric;
  bool json = false, force = false;
  std::size_t top = 0;
};

DiffPlan plan(const DiffFlags& f) {
  DiffPlan p;
  p.options = f.options;
  apply_peak_flag(f.peak, p.options);
  apply_hta_window_flag(f.hta_window, p.options);
  check_csv_dir(f.csv_dir);
  p.csv_dir = f.csv_dir;
  if (!f.fail_if_slower.empty()) p.limit_pct = parse_percent(f.fail_if_slower);
  p.a_files = split_commas(f.a);
  p.b_files = split_commas(f.b);
  if (p.a_files.empty() || p.b_files.empty()) throw Error("both sides need at least one trace file", kExitUsage);
  p.metric = f.metric;
  p.json = f.json;
  p.force = f.force;
  p.top = f.top;
  return p;
}

int run(const DiffPlan& p) {
  std::vector<Profile> a_profiles = load_profiles(p.a_files), b_profiles = load_profiles(p.b_files);
  if (a_profiles.size() != b_profiles.size()) {
    std::string what = "A has " + std::to_string(a_profiles.size()) + " rank(s), B has " +
                       std::to_string(b_profiles.size()) + ": per-step figures (averaged over ranks) would compare " +
                       "different setups";
    if (!p.force) throw Error(what + "; give the same ranks on both sides, or --force", kExitUsage);
    say("diff", "warning: %s (--force)", what.c_str());
  }
  AnalyzeReport a = analyze_profiles(a_profiles, p.options);
  AnalyzeReport b = analyze_profiles(b_profiles, p.options);
  DiffReport d = diff_reports(a, b);
  if (!p.csv_dir.empty()) {
    std::vector<std::string> inputs = profile_files(a_profiles), b_inputs = profile_files(b_profiles);
    inputs.insert(inputs.end(), b_inputs.begin(), b_inputs.end());
    write_csv_files("diff", p.csv_dir, diff_csv(d), inputs);
  }
  std::optional<DiffGate> gate;
  if (p.limit_pct) gate = evaluate_gate(d, p.metric, *p.limit_pct);
  std::string out =
      p.json ? diff_json(d, p.a_files, p.b_files, p.top, gate).dump(1, ' ', false, kReplaceInvalidUtf8) + "\n"
             : diff_text(d, label(p.a_files), label(p.b_files), p.top, gate);
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (std::fflush(stdout) != 0) return kExitFailed;
  if (gate && gate->tripped) {
    say("diff", "%s", gate_line(*gate).c_str());
    return kExitThresholdTripped;
  }
  return 0;
}

int run_diff(int argc, char** argv) {
  CLI::App app{
      "Compare two runs: GPU time per step before (A) and after (B), what moved, which findings changed.\n"
      "A side of several ranks is a comma-separated list: r0.json.gz,r1.json.gz",
      argv[0]};
  return declare_plan_run<DiffFlags>(app, argc, argv, declare, plan, run);
}

const VerbRegistration kRegistration{"diff", "did my change help? step time before/after and what moved", &run_diff};

}  // namespace
}  // namespace cuprobe
