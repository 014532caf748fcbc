// What `cuprobe analyze` computes for each rank and across ranks. Plain data:
// the report/ layer turns it into text or JSON.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/counter_attribution.h"
#include "analysis/cross_rank.h"
#include "analysis/device_peaks.h"
#include "analysis/kernel_taxonomy.h"
#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

struct Step {
  // The CPU side: the annotation range, or the launch calls of the step's first
  // kernel (graph) to the next step's; GPU times stand in when the trace has no
  // launch calls (StepSummary::cpu_from is then empty).
  TimeNs cpu_start = 0;
  TimeNs cpu_end = 0;
  TimeNs gpu_start = 0;  // first..last GPU activity assigned to the step (0,0 when none)
  TimeNs gpu_end = 0;
  TimeNs gpu_busy = 0;  // union of the step's GPU activity intervals
  // The step time, on the GPU clock: from the step's first GPU start to the next
  // step's (the last step: its GPU span), never less than gpu_busy; 0 without GPU work.
  TimeNs time = 0;
  std::int64_t activities = 0;
  std::string kind;                                  // "decode", "prefill", or "step"
  std::array<TimeNs, kCategoryCount> category_ns{};  // summed activity time by Category (may exceed gpu_busy)
  // Overlap of categories inside the step (analysis/category_overlap.h): the union of its communication
  // kernels and the part of it that ran while a compute kernel ran on the same GPU; the same for copies.
  TimeNs comm_ns = 0, comm_overlapped_ns = 0;
  TimeNs copy_ns = 0, copy_overlapped_ns = 0;
  // Far slower than the steps of its kind: time above max(median + 5 MAD, 1.25 median) of those steps.
  bool outlier = false;
};

// The steps of one kind ("decode", "prefill", "step") with GPU work: their median step time and the
// limit above which one is an outlier.
struct StepKindSummary {
  std::string kind;
  std::int64_t steps = 0;
  double median_ms = 0;
  double outlier_limit_ms = 0;
  std::int64_t outliers = 0;
};

struct StepSummary {
  // Which rule found the steps: "annotation", "graph launch" (whole-graph records,
  // one per launch), "graph replay" (a launch's kernels, node by node),
  // "periodicity" or "none".
  std::string source = "none";
  std::string marker;  // the annotation name (prefix), "period of N kernels", "one CUDA graph launch per step"
  std::int64_t period_kernels = 0;
  std::int64_t replays_per_step = 0;  // graph rules: graph launches per step
  std::string cpu_from;               // "annotation", "launch calls", or "" (no CPU times in the trace)
  std::vector<Step> steps;
  double median_ms = 0, p90_ms = 0;          // step time (Step::time), GPU clock; steps with GPU work only
  double cpu_median_ms = 0, cpu_p90_ms = 0;  // CPU range (Step::cpu_*), when cpu_from says where from
  double gpu_span_median_ms = 0, gpu_span_p90_ms = 0;
  double gpu_median_ms = 0, gpu_p90_ms = 0;  // GPU busy time per step
  std::int64_t assigned_activities = 0;      // GPU activities placed in a step
  std::int64_t before_first_step = 0;        // GPU activities before the first step (warm-up), in none
  // The step whose step time is closest to median_ms (the first of equals) and the one with the longest step
  // time, among steps with GPU work; none without such steps. What every view draws as "typical" and "slowest".
  std::optional<std::size_t> typical_step, slowest_step;
  std::vector<StepKindSummary> kinds;  // in order of first appearance
};

struct CategoryRow {
  Category category = Category::kOther;
  double time_ms = 0;
  double share = 0;       // of summed activity time (RankAnalysis::summed_ms): the rows add up to 100%
  double busy_ratio = 0;  // time / GPU busy time (RankAnalysis::gpu_time_ms): over 1 where activities overlap
  std::int64_t calls = 0;
  double per_step_ms = 0;         // mean time per step (0 without steps)
  double per_step_median_ms = 0;  // median over steps (0 without steps)
  double summed_share = 0;        // the same as share (the name older readers know)
};

// How categories overlap in time (analysis/category_overlap.h): communication and copies (memcpy) against
// compute (every kernel that is not communication, memcpy or memset, whole graph launches included), as
// unions of intervals per GPU. Shares are of the communication (copy) time; 0 where there is none.
struct CategoryOverlap {
  double comm_ms = 0;             // union of communication kernels
  double comm_overlapped_ms = 0;  // of which a compute kernel ran on the same GPU
  double comm_overlapped_share = 0;
  double copy_ms = 0;  // union of memcpy activities
  double copy_overlapped_ms = 0;
  double copy_overlapped_share = 0;
  // Median over the steps that have communication (copies) of the same share per step; 0 without such steps.
  double comm_overlapped_share_step_median = 0;
  double copy_overlapped_share_step_median = 0;
  std::int64_t steps_with_comm = 0, steps_with_copy = 0;
};

// The work of a kernel's calls whose launching operator's shapes (or memcpy
// record) are known: totals over those calls, like time_ms (docs/findings.md).
struct KernelWork {
  double bytes = 0;
  double flops = 0;
  std::int64_t calls = 0;  // calls whose work is known
  double time_ms = 0;      // their GPU time
  double achieved_tbps = 0;
  double achieved_tflops = 0;
  std::optional<double> peak_share;  // of the nearer roof; none without the device's peaks
  std::string bound;                 // "memory", "compute", "latency"; "" without peaks
  std::string dtype;                 // the rate its FLOPs are held against ("bf16", "fp8", "fp32"...)
  // Where the bytes come from: "shapes" (operator shapes), "memcpy" (the activity's own
  // byte count) or "counters" (DRAM bytes measured, measured_bytes.h).
  std::string source;
  // Physics as a check: why the counted work cannot be what the kernel did ("10.6 TB/s is 2.2x the memory
  // peak"), "" when within the device's peaks (or they are unknown). Such a kernel is left out of the what-ifs.
  std::string beyond_peak;
};

struct KernelRow {
  std::string name;
  Category category = Category::kOther;
  std::optional<bool> tensor_core;
  std::optional<Precision> precision;
  std::int64_t calls = 0;
  double time_ms = 0;
  double share = 0;       // of summed activity time, as CategoryRow::share
  double busy_ratio = 0;  // time / GPU busy time, as CategoryRow::busy_ratio
  double mean_us = 0;
  // The spread of its calls' durations (analysis/kernel_durations.h).
  double min_us = 0, median_us = 0, p90_us = 0, max_us = 0;
  double std_us = 0;  // population
  double per_step_ms = 0;
  double per_step_median_ms = 0;
  double summed_share = 0;                               // the same as share, as CategoryRow::summed_share
  CategorySource decided_by = CategorySource::kUnknown;  // of the name's first activity
  std::string rule;  // the taxonomy row or operator pattern that decided ("" for none)
  std::optional<KernelWork> work;
  // DRAM bytes read and written while its calls ran, from counter samples that
  // its calls mostly filled (measured_bytes.h); none where counters do not cover it.
  std::optional<double> dram_bytes_measured;
};

// GPU time by how its category was decided (name, kind, launching operator, unknown).
struct CategoryDecisionRow {
  CategorySource source = CategorySource::kUnknown;
  double time_ms = 0;
  double share = 0;  // of summed activity time, as CategoryRow::share
  std::int64_t calls = 0;
  std::int64_t kernels = 0;  // distinct names whose first activity was decided so
};

// What the step would take if the finding were fixed (docs/findings.md gives each projection).
struct WhatIf {
  std::string description;
  double step_ms_now = 0;
  // The step with this finding's own gain taken off (its time no higher-ranked finding claims: finding_gains.h);
  // none when the trace lacks what the projection needs (said in description).
  std::optional<double> step_ms_after;
  // The step were this finding fixed alone (the projection in the description); none as above.
  std::optional<double> step_ms_after_alone;
};

// The time a finding's fix would remove, as finding_gains.h apportions it between findings so that each
// microsecond of the step has one owner: GPU time of given activities, a share of the step's GPU idle time,
// or time no other finding can claim. Without a projection, the time the finding explains.
struct FindingClaim {
  std::vector<std::pair<std::size_t, double>> activity_ms;  // profile.gpu index -> ms over the trace (in steps)
  double idle_ms = 0;                                       // per step: of the step's GPU idle time
  double own_ms = 0;  // per step: time only this finding claims (the pipeline overlap)
  // A finding that names no kernel and fix of its own (low_tensor_core_share, gpu_idle): the time it shares with a
  // specific finding goes to the specific one.
  bool generic = false;
  // The fix changes what the host launches (CUDA graphs, fewer kernels, no synchronize): the host's floor under
  // the projected step (findings_what_if.h, apply_host_floor) does not bind it.
  bool changes_launches = false;
  // Per step: the most this fix can save, the step never going below what the host needs to launch it
  // (apply_host_floor); none when the floor does not bind.
  std::optional<double> max_gain_ms;
};

// A line of the user's code that launched a finding's kernels (analysis/finding_sources.h).
struct SourceLine {
  std::string file;  // as the trace names it
  int line = 0;
  std::string function;
  double share = 0;  // of the finding's GPU time (of its synchronize calls' time, for gpu_idle) tied to a line
  double time_ms = 0;
};

struct Finding {
  std::string id;
  std::string severity;   // "high", "medium", "low": from gain_ms's share of the step (finding_gains.h)
  double share = 0;       // of GPU time in steps (of busy time without steps; gpu_idle: of step time)
  double step_share = 0;  // of step time: the time the finding explains
  std::optional<int> rank;
  std::string title;
  std::string suggestion;
  std::vector<std::string> kernels;
  std::vector<std::pair<std::string, double>> numbers;
  WhatIf what_if;
  // Where in the user's code its kernels were launched (torch.profiler with_stack=True), most time first; empty
  // without Python frames in the trace.
  std::vector<SourceLine> sources;
  FindingClaim claim;  // analysis only, not rendered
  // What findings are ranked by: the step time this finding's fix saves that no higher-ranked finding claims
  // (finding_gains.h), or without a projection the step time it explains that none claims.
  double gain = 0;
  double gain_ms() const { return gain; }
  // The gain were the finding fixed alone: step_ms_now - step_ms_after_alone, or the step time it explains.
  double alone_gain_ms() const;
};

// One GPU of a rank (a process driving several GPUs has several; analysis/device_usage.h).
struct DeviceRow {
  std::int32_t device = -1;
  std::string name;  // from the trace's device properties ("" when it gives none)
  std::int64_t activities = 0;
  double busy_ms = 0;              // union of this GPU's activities
  double busy_share = 0;           // of the window
  double step_busy_median_ms = 0;  // its busy time per step, median over steps with GPU work (0 without steps)
  double idle_share = 0;           // of step time (1 - busy / step time, medians); of the window without steps
  // Of step time (of the window): idle while another GPU of the rank works, so waiting for it, not the host.
  double waiting_share = 0;
};

struct RankAnalysis {
  std::optional<int> rank;
  std::string file;
  std::string device;
  double window_ms = 0;
  double gpu_busy_ms = 0;
  double gpu_busy_share = 0;
  std::int64_t gpu_activities = 0;
  StepSummary steps;
  std::vector<DeviceRow> devices;  // the GPUs it used, by id; gpu_busy_ms is the time any of them is busy
  // The step (the window without steps) were the GPUs' work overlapped: time no GPU works plus the busiest
  // GPU's busy time, median over steps (pipeline_bubble's what-if). 0 for one GPU.
  double overlapped_step_ms = 0;
  std::vector<CategoryRow> categories;  // by time, largest first
  double summed_ms = 0;                 // the categories' times added up: >= GPU busy where work overlaps
  CategoryOverlap overlap;              // communication and copies against compute
  // Tensor-core time / the summed time of activities other than whole graph launches (whose kernels are unseen):
  // tensor_core_share is the median over steps with GPU work (the window's without steps), the one figure that the
  // header, the findings, the page and JSON show; tensor_core_share_window is over the whole trace.
  double tensor_core_share = 0;
  bool tensor_core_per_step = false;  // tensor_core_share is a median over steps
  double tensor_core_share_window = 0;
  double tensor_core_basis_ms = 0;                      // summed time outside whole graph launches, whole trace
  double tensor_core_hidden_ms = 0;                     // summed time of whole graph launches (tensor-core use unknown)
  std::vector<KernelRow> kernels;                       // by time, largest first
  std::vector<std::string> unknown_kernels;             // classified "other", by time
  std::vector<CategoryDecisionRow> category_decisions;  // sources that occur, in CategorySource order
  std::vector<Finding> findings;
  std::vector<std::string> warnings;
  ImportStats import_stats;          // what the import counted (also listed in warnings)
  CounterAttribution counters;       // empty metrics unless the profile carries counter samples
  std::optional<DevicePeaks> peaks;  // the device's (table and --peak), none for a GPU not in the table
  bool op_shapes = false;            // the trace carries operator shapes (record_shapes)
  bool complete = true;              // false when the source says the recording was cut short
  // The peers' first tables (analysis/trace_tables.h).
  IdleBreakdown idle;
  LaunchStats launches;
  std::vector<AnnotationRow> annotations;  // by GPU time, largest first
  std::vector<ApiRow> api;                 // by total time, largest first
  std::vector<CopyRow> copies;             // by time, largest first
  std::vector<QueueRow> queues;            // by device, then stream
  HtaCommOverlap hta_overlap;              // communication beside computation, as HTA
  HtaWindowInfo hta_window;                // the window of idle, launches, queues and hta_overlap

  // What shares of GPU time (categories, kernels, tensor cores) are of: the busy time summed over the rank's GPUs,
  // gpu_busy_ms on one GPU (on several, their union would count two GPUs working at once as one).
  double gpu_time_ms() const {
    if (devices.size() < 2) return gpu_busy_ms;
    double sum = 0;
    for (const DeviceRow& d : devices) sum += d.busy_ms;
    return sum;
  }
};

struct AnalyzeReport {
  std::vector<RankAnalysis> ranks;
  std::vector<Finding> findings;  // all ranks, ranked by step_share
  std::vector<std::string> warnings;
  std::optional<CrossRank> cross_rank;  // two ranks or more (analysis/cross_rank.h)
};

// Which part of the trace the tables named after HTA cover (HtaWindowInfo): HTA's default, or everything.
enum class HtaWindow : std::uint8_t { kDefault, kAll };

struct AnalyzeOptions {
  std::string step_marker;                     // empty: detect
  HtaWindow hta_window = HtaWindow::kDefault;  // --hta-window
  DevicePeaks peak_overrides;                  // --peak (empty: the table's)
};

}  // namespace cuprobe
