// cuprobe analyze TRACE...: where each step's GPU time goes, with findings.
#include "analysis/analyze.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>

#include "cli/csv_dir.h"
#include "cli/hta_window_flag.h"
#include "cli/parse_args.h"
#include "cli/peak_flag.h"
#include "cli/verb.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/say.h"
#include "import/load_profiles.h"
#include "report/analyze_csv.h"
#include "report/analyze_json.h"
#include "report/analyze_text.h"
#include "report/rank_summary_file.h"

namespace cuprobe {
namespace {

struct AnalyzeFlags {
  std::vector<std::string> files;
  AnalyzeOptions options;
  bool json = false, strict = false;
  std::string csv_dir, peak, summary, hta_window = "default";
  std::size_t top = 15;
};

void declare(CLI::App& app, AnalyzeFlags& f) {
  app.add_option("files", f.files, "trace files (one per rank) or directories of them")->required();
  app.add_option("--step-marker", f.options.step_marker,
                 "annotation name (prefix) that marks one step; default: detect ProfilerStep#, SGLang, vLLM markers");
  add_hta_window_flag(app, f.hta_window);
  app.add_flag("--json", f.json, "print the cuprobe.analyze/1 JSON report");
  add_peak_flag(app, f.peak);
  app.add_option("--top", f.top, "kernels to list per rank (default 15)");
  app.add_option("--summary", f.summary,
                 "also write FILE: what the cross-rank analysis needs of each rank read (KB to MB); 'analyze' of such\n"
                 "files (one per node) gives the cross-rank table and straggler without the traces");
  app.add_flag("--strict", f.strict,
               "fail (exit 1) when the import counted any problem (a data_loss or error import stat; see warnings)");
  app.add_option(
      "--csv", f.csv_dir,
      "also write categories.csv, kernels.csv, steps.csv, findings.csv, overlap.csv and the tables idle.csv,\n"
      "launches.csv, annotations.csv, api.csv, copies.csv, queues.csv, hta_overlap.csv into DIR (created if missing)");
}

// The flags are the plan but for --peak, which sets the options' peaks.
AnalyzeFlags plan(AnalyzeFlags f) {
  apply_peak_flag(f.peak, f.options);
  apply_hta_window_flag(f.hta_window, f.options);
  check_csv_dir(f.csv_dir);
  return f;
}

// --strict: a problem counted while importing (not an info stat) fails the run.
void check_strict(const std::vector<Profile>& profiles) {
  for (const auto& p : profiles) {
    if (p.stats.problems() == 0) continue;
    for (const auto& line : p.stats.counted()) {
      if (line.info->severity != StatSeverity::kInfo) throw InputError(p.file, "--strict: " + line.text());
    }
  }
}

// What is kept of a Profile once analyse_rank has read it: its identity and what the import counted.
Profile released(Profile& p) {
  Profile kept;
  kept.file = std::move(p.file);
  kept.source = std::move(p.source);
  kept.rank = p.rank;
  kept.world_size = p.world_size;
  kept.devices = std::move(p.devices);
  kept.complete = p.complete;
  kept.stats = std::move(p.stats);
  kept.notices = std::move(p.notices);
  return kept;
}

// Each rank analysed as soon as it is loaded and its Profile released (memory: a few ranks' worth at a time), then
// the ranks combined (analysis/analyze.h).
AnalyzeReport analyze_files(const AnalyzeFlags& p, std::vector<Profile>& kept, std::vector<RankSummary>& summaries) {
  std::mutex mutex;
  std::map<std::size_t, RankResult> results;
  auto reduce = [&](Profile& profile, std::size_t slot) {
    RankResult r = analyze_rank(profile, p.options);
    profile = released(profile);
    std::lock_guard lock(mutex);
    results.emplace(slot, std::move(r));
  };
  std::vector<std::size_t> slots;
  kept = load_profiles(p.files, reduce, slots);
  std::vector<RankResult> ranks;
  ranks.reserve(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    RankResult& r = results.at(slots[i]);
    r.analysis.rank = kept[i].rank;  // settled by load_profiles after the rank was analysed
    // What load_profiles counted after (a directory's other files, a rank claimed twice) is told too.
    std::vector<std::string> told;
    for (const auto& line : r.analysis.import_stats.counted()) told.push_back(line.text());
    for (const auto& line : kept[i].stats.counted()) {
      if (std::find(told.begin(), told.end(), line.text()) == told.end())
        r.analysis.warnings.push_back(kept[i].file + ": " + line.text());
    }
    r.analysis.import_stats = kept[i].stats;
    summaries.push_back(r.summary);
    summaries.back().rank = r.analysis.rank;
    ranks.push_back(std::move(r));
  }
  return combine_ranks(std::move(ranks));
}

// Summary files only (analyze --summary): the cross-rank table and straggler from them, no per-rank sections.
AnalyzeReport analyze_summaries(const std::vector<std::string>& files) {
  std::vector<RankResult> ranks;
  for (const std::string& file : files) {
    for (RankSummary& s : read_rank_summary_file(file)) {
      RankResult r;
      r.analysis.rank = s.rank;
      r.analysis.file = s.file;
      r.analysis.window_ms = s.step_ms;  // what the straggler's gain is held against, as with its steps
      r.analysis.gpu_busy_ms = s.gpu_time_ms;
      r.summary = std::move(s);
      ranks.push_back(std::move(r));
    }
  }
  std::stable_sort(ranks.begin(), ranks.end(), [](const RankResult& a, const RankResult& b) {
    return a.analysis.rank.value_or(0) < b.analysis.rank.value_or(0);
  });
  AnalyzeReport report = combine_ranks(std::move(ranks));
  report.ranks.clear();
  return report;
}

// Whether the inputs are summary files (all of them) or traces (none of them).
bool summary_inputs(const std::vector<std::string>& files) {
  std::size_t summaries = 0;
  for (const std::string& f : files) summaries += is_rank_summary_file(f) ? 1 : 0;
  if (summaries > 0 && summaries < files.size())
    throw InputError(files.front(), "give summary files (analyze --summary) or traces, not both");
  return summaries > 0;
}

int run(const AnalyzeFlags& p) {
  std::vector<Profile> profiles;
  std::vector<RankSummary> summaries;
  bool from_summaries = summary_inputs(p.files);
  AnalyzeReport report = from_summaries ? analyze_summaries(p.files) : analyze_files(p, profiles, summaries);
  if (p.strict) check_strict(profiles);
  if (!p.summary.empty()) {
    if (from_summaries) throw InputError(p.summary, "--summary: the inputs are summaries already");
    std::vector<std::string> read = profile_files(profiles);
    read.insert(read.end(), p.files.begin(), p.files.end());
    AtomicFile file(p.summary, read);
    file.stream() << rank_summary_file(summaries);
    file.commit();
    say("analyze", "wrote the summary of %zu rank(s) to %s", summaries.size(), p.summary.c_str());
  }
  if (!p.csv_dir.empty()) write_csv_files("analyze", p.csv_dir, analyze_csv(report), profile_files(profiles));
  if (p.json) {  // rank by rank: the whole document is never held (issue 37)
    write_analyze_json(std::cout, report, SIZE_MAX);
    std::cout << '\n' << std::flush;
    return std::cout && std::fflush(stdout) == 0 ? 0 : 1;
  }
  std::string out = analyze_text(report, p.top);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

int run_analyze(int argc, char** argv) {
  CLI::App app{
      "Kernel-level breakdown per step of torch profiler (Kineto) traces, cuprobe runs and Nsight Systems exports,\n"
      "with findings. Give one file per rank (.json, .json.gz, .json.xz, .cuprobe, nsys .sqlite or .nsys-rep) or a\n"
      "directory of them; ranks come from distributedInfo, the processes and GPUs of an nsys export, or the name.",
      argv[0]};
  return declare_plan_run<AnalyzeFlags>(app, argc, argv, declare, plan, run);
}

const VerbRegistration kRegistration{"analyze", "where each step's GPU time goes (torch/Kineto traces, cuprobe runs)",
                                     &run_analyze};

}  // namespace
}  // namespace cuprobe
