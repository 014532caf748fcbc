#include "analysis/analyze.h"

#include <algorithm>
#include <limits>

#include "analysis/annotation_time.h"
#include "analysis/api_summary.h"
#include "analysis/breakdown.h"
#include "analysis/category_overlap.h"
#include "analysis/clock_alignment.h"
#include "analysis/collective_wait.h"
#include "analysis/copy_summary.h"
#include "analysis/cross_rank_table.h"
#include "analysis/device_usage.h"
#include "analysis/finding_gains.h"
#include "analysis/finding_sources.h"
#include "analysis/findings.h"
#include "analysis/hta_comm_overlap.h"
#include "analysis/hta_window.h"
#include "analysis/idle_time.h"
#include "analysis/interval_union.h"
#include "analysis/kernel_durations.h"
#include "analysis/kernel_work.h"
#include "analysis/launch_links.h"
#include "analysis/launch_stats.h"
#include "analysis/measured_bytes.h"
#include "analysis/queue_length.h"
#include "analysis/rank_summary.h"
#include "analysis/step_detection.h"
#include "analysis/straggler.h"
#include "model/time_range.h"

namespace cuprobe {
namespace {

constexpr std::size_t kCounterKernelsShown = 10;  // kernels in the counter table (by busy time)

void fill_window(const Profile& p, RankAnalysis& a) {
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (const auto& g : p.gpu) {
    lo = std::min(lo, g.start);
    hi = std::max(hi, g.end);
  }
  for (const auto& c : p.cpu) {
    lo = std::min(lo, c.start);
    hi = std::max(hi, c.end);
  }
  a.window_ms = hi > lo ? span_ns(lo, hi) / 1e6 : 0.0;
  a.gpu_busy_ms = static_cast<double>(busy_time(p.gpu)) / 1e6;
  a.gpu_busy_share = a.window_ms > 0 ? a.gpu_busy_ms / a.window_ms : 0.0;
  a.gpu_activities = static_cast<std::int64_t>(p.gpu.size());
}

// The peers' first tables (analysis/trace_tables.h).
// Idle time, launch delays, queue length and the communication overlap, named after HTA, cover HTA's window
// (analysis/hta_window.h); the tables named after nsys, which keeps every event, cover the whole trace.
void fill_trace_tables(const Profile& p, const StepAssignment& steps, HtaWindow window, RankAnalysis& a) {
  fill_kernel_durations(p, a.kernels);
  const LaunchLinks links = link_launches(p);
  a.annotations = annotation_time(p, links, steps, a.summed_ms);
  a.api = api_summary(p);
  a.copies = copy_summary(p);
  auto hta_tables = [&a](const Profile& wp, const LaunchLinks& wl, const StepAssignment& ws) {
    a.idle = idle_by_stream(wp, wl, ws);
    a.launches = launch_stats(wp, wl);
    a.queues = queue_length(wp, wl);
    a.hta_overlap = hta_comm_overlap(wp);
  };
  if (std::optional<HtaWindowed> w = hta_window(p, links, steps, window, a.hta_window)) {
    hta_tables(w->profile, link_launches(w->profile), w->steps);
  } else {
    hta_tables(p, links, steps);
  }
}

std::string device_name(const Profile& p) {
  std::vector<std::string> names;
  for (const auto& d : p.devices) {
    if (std::find(names.begin(), names.end(), d.name) == names.end()) names.push_back(d.name);
  }
  std::string joined;
  for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
  return joined;
}

// What the user is told about one rank's input.
void add_rank_warnings(const Profile& p, const StepAssignment& steps, const AnalyzeOptions& options, RankAnalysis& a) {
  if (!p.complete)
    a.warnings.push_back(p.file + ": the recording is marked incomplete (cut short); numbers cover what was saved");
  if (!options.step_marker.empty() && a.steps.steps.empty()) {
    a.warnings.push_back(p.file + ": no annotation starts with the step marker '" + options.step_marker + "'");
  }
  if (steps.placed_by_time > 0) {
    bool any_runtime =
        std::any_of(p.cpu.begin(), p.cpu.end(), [](const CpuRange& r) { return r.kind == CpuRangeKind::kRuntime; });
    std::string why =
        any_runtime ? "in the trace" : "(the trace has no CUDA runtime calls; `cuprobe record --api` adds them)";
    a.warnings.push_back(p.file + ": " + std::to_string(steps.placed_by_time) + " GPU activities have no launch call " +
                         why + "; placed in steps by their GPU start time");
  }
  if (a.steps.source == "annotation" && a.steps.assigned_activities == 0) {
    a.warnings.push_back(p.file +
                         ": step annotations found, but no GPU activity could be tied to them "
                         "(no correlation ids in the trace)");
  }
  a.import_stats = p.stats;
  for (const auto& line : p.stats.counted()) a.warnings.push_back(p.file + ": " + line.text());
  for (const auto& notice : p.notices) a.warnings.push_back(p.file + ": recorder notice: " + notice);
  if (!a.unknown_kernels.empty()) {
    a.warnings.push_back(p.file + ": " + std::to_string(a.unknown_kernels.size()) +
                         " kernel name(s) not in the taxonomy, counted as 'other' (listed in the report)");
  }
}

}  // namespace

RankResult analyze_rank(const Profile& p, const AnalyzeOptions& options) {
  RankResult result;
  RankAnalysis& a = result.analysis;
  a.rank = p.rank;
  a.file = p.file;
  a.device = device_name(p);
  fill_window(p, a);
  StepAssignment steps = detect_steps(p, options);
  a.steps = steps.summary;
  fill_device_usage(p, steps, a);
  std::vector<KernelClass> classes = classify_activities(p);
  compute_breakdown(p, classes, steps, a);
  fill_category_overlap(p, classes, steps, a);
  fill_trace_tables(p, steps, options.hta_window, a);
  std::string first_device = p.devices.empty() ? std::string() : p.devices.front().name;
  auto table = first_device.empty() ? std::nullopt : peaks_for_device(first_device);
  if (table || !options.peak_overrides.empty()) a.peaks = apply_peak_overrides(table, options.peak_overrides);
  if (!table && !first_device.empty())
    a.warnings.push_back(p.file + ": GPU '" + first_device +
                         "' is not in cuprobe's table of peaks: no share of peak shown unless --peak gives them");
  WorkAttribution work = attribute_work(p);
  a.op_shapes = work.shapes;
  fill_kernel_work(p, work, a);
  exclude_beyond_peak(p, a, work);
  // Every kernel's readings for the measured bytes (which the what-ifs use without shapes); the report keeps the
  // top ones.
  a.counters = attribute_counters(p, classes, std::numeric_limits<std::size_t>::max());
  fill_measured_bytes(a.counters, a);
  add_rank_findings(p, classes, steps, work, a);
  add_finding_sources(p, steps, a.findings);
  if (a.counters.by_kernel.size() > kCounterKernelsShown) a.counters.by_kernel.resize(kCounterKernelsShown);
  a.complete = p.complete;
  add_rank_warnings(p, steps, options, a);
  result.summary = summarize_rank(p, classes, a);
  return result;
}

AnalyzeReport combine_ranks(std::vector<RankResult> ranks) {
  AnalyzeReport report;
  std::vector<RankInput> inputs;
  std::vector<const RankSummary*> summaries;
  for (RankResult& r : ranks) {
    r.summary.rank = r.analysis.rank;  // settled after the rank was analysed (load_profiles)
    for (Finding& f : r.analysis.findings) f.rank = r.analysis.rank;
    inputs.push_back({&r.summary, &r.analysis});
    summaries.push_back(&r.summary);
  }
  add_collective_wait_findings(inputs);
  if (ranks.size() >= 2) {
    std::vector<MatchedCollective> matched = match_collectives(summaries);
    ClockAlignment clocks = align_clocks(summaries, matched);
    CrossRank table = cross_rank_table(summaries, matched, clocks);
    if (auto f = find_straggler(summaries, matched, table))
      ranks[table.straggler->position].analysis.findings.push_back(*f);
    report.cross_rank = std::move(table);
  }
  for (RankResult& r : ranks) {
    RankAnalysis& a = r.analysis;
    const RankSummary& s = r.summary;
    apportion_gains([&s](std::size_t i) { return summary_activity_ms(s, i); }, a);
    report.findings.insert(report.findings.end(), a.findings.begin(), a.findings.end());
    report.warnings.insert(report.warnings.end(), a.warnings.begin(), a.warnings.end());
    report.ranks.push_back(std::move(a));
  }
  rank_findings(report.findings);
  return report;
}

AnalyzeReport analyze_profiles(const std::vector<Profile>& profiles, const AnalyzeOptions& options) {
  std::vector<RankResult> ranks;
  ranks.reserve(profiles.size());
  for (const Profile& p : profiles) ranks.push_back(analyze_rank(p, options));
  return combine_ranks(std::move(ranks));
}

}  // namespace cuprobe
