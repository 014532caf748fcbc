// cuprobe diff A B: step time before and after, and what moved.
#include "analysis/diff.h"

#include <cstdio>

#include "analysis/analyze.h"
#include "cli/parse_args.h"
#include "cli/peak_flag.h"
#include "cli/verb.h"
#include "common/error.h"
#include "import/load_profiles.h"
#include "report/analyze_json.h"
#include "report/diff_report.h"

namespace cuprobe {
namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t comma; (comma = s.find(',', start)) != std::string::npos; start = comma + 1) {
    if (comma > start) parts.push_back(s.substr(start, comma - start));
  }
  if (start < s.size()) parts.push_back(s.substr(start));
  return parts;
}

std::string label(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f;
  return out;
}

int run_diff(int argc, char** argv) {
  CLI::App app{
      "Compare two runs: GPU time per step before (A) and after (B), what moved, which findings changed.\n"
      "A side of several ranks is a comma-separated list: r0.json.gz,r1.json.gz",
      argv[0]};
  std::string a_arg, b_arg;
  AnalyzeOptions options;
  bool as_json = false;
  std::size_t top = 12;
  app.add_option("A", a_arg, "before: trace file(s), comma-separated for ranks")->required();
  app.add_option("B", b_arg, "after: trace file(s), comma-separated for ranks")->required();
  app.add_option("--step-marker", options.step_marker, "annotation name (prefix) that marks one step");
  app.add_flag("--json", as_json, "print the cuprobe.diff/1 JSON report");
  app.add_option("--top", top, "changes to list (default 12)");
  std::string peak;
  add_peak_flag(app, peak);
  if (auto rc = parse_args(app, argc, argv)) return *rc;
  apply_peak_flag(peak, options);

  std::vector<std::string> a_files = split_commas(a_arg), b_files = split_commas(b_arg);
  if (a_files.empty() || b_files.empty()) throw Error("both sides need at least one trace file", kExitUsage);
  AnalyzeReport a = analyze_profiles(load_profiles(a_files), options);
  AnalyzeReport b = analyze_profiles(load_profiles(b_files), options);
  DiffReport d = diff_reports(a, b);
  std::string out = as_json ? diff_json(d, a_files, b_files, top).dump(1, ' ', false, kReplaceInvalidUtf8) + "\n"
                            : diff_text(d, label(a_files), label(b_files), top);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

const VerbRegistration kRegistration{"diff", "did my change help? step time before/after and what moved", &run_diff};

}  // namespace
}  // namespace cuprobe
