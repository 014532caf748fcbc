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
#include "analysis/kernel_taxonomy.h"
#include "model/profile.h"

namespace cuprobe {

struct Step {
  TimeNs cpu_start = 0;  // annotation range, or launches of the step's first..next-first kernel
  TimeNs cpu_end = 0;
  TimeNs gpu_start = 0;  // first..last GPU activity assigned to the step (0,0 when none)
  TimeNs gpu_end = 0;
  TimeNs gpu_busy = 0;  // union of the step's GPU activity intervals
  std::int64_t activities = 0;
  std::string kind;                                  // "decode", "prefill", or "step"
  std::array<TimeNs, kCategoryCount> category_ns{};  // summed activity time by Category (may exceed gpu_busy)
};

struct StepSummary {
  std::string source = "none";  // "annotation", "periodicity" or "none"
  std::string marker;           // the annotation name (prefix) or "period of N kernels"
  std::int64_t period_kernels = 0;
  std::vector<Step> steps;
  double median_ms = 0, p90_ms = 0;  // CPU span
  double gpu_span_median_ms = 0, gpu_span_p90_ms = 0;
  double gpu_median_ms = 0, gpu_p90_ms = 0;  // GPU busy time per step
  std::int64_t assigned_activities = 0;      // GPU activities placed in a step
};

struct CategoryRow {
  Category category = Category::kOther;
  double time_ms = 0;
  double share = 0;  // of GPU busy time
  std::int64_t calls = 0;
  double per_step_ms = 0;         // mean time per step (0 without steps)
  double per_step_median_ms = 0;  // median over steps (0 without steps)
};

struct KernelRow {
  std::string name;
  Category category = Category::kOther;
  std::optional<bool> tensor_core;
  std::optional<Precision> precision;
  std::int64_t calls = 0;
  double time_ms = 0;
  double share = 0;
  double mean_us = 0;
  double per_step_ms = 0;
  double per_step_median_ms = 0;
  CategorySource decided_by = CategorySource::kUnknown;  // of the name's first activity
  std::string rule;  // the taxonomy row or operator pattern that decided ("" for none)
};

// GPU time by how its category was decided (name, kind, launching operator, unknown).
struct CategoryDecisionRow {
  CategorySource source = CategorySource::kUnknown;
  double time_ms = 0;
  double share = 0;  // of GPU busy time
  std::int64_t calls = 0;
  std::int64_t kernels = 0;  // distinct names whose first activity was decided so
};

struct Finding {
  std::string id;
  std::string severity;   // "high", "medium", "low"
  double share = 0;       // of GPU busy time (gpu_idle: of step time)
  double step_share = 0;  // of step time: what findings are ranked by
  std::optional<int> rank;
  std::string title;
  std::string suggestion;
  std::vector<std::string> kernels;
  std::vector<std::pair<std::string, double>> numbers;
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
  std::vector<CategoryRow> categories;  // by time, largest first
  double tensor_core_share = 0;
  std::vector<KernelRow> kernels;                       // by time, largest first
  std::vector<std::string> unknown_kernels;             // classified "other", by time
  std::vector<CategoryDecisionRow> category_decisions;  // sources that occur, in CategorySource order
  std::vector<Finding> findings;
  std::vector<std::string> warnings;
  ImportStats import_stats;     // what the import counted (also listed in warnings)
  CounterAttribution counters;  // empty metrics unless the profile carries counter samples
  bool complete = true;         // false when the source says the recording was cut short
};

struct AnalyzeReport {
  std::vector<RankAnalysis> ranks;
  std::vector<Finding> findings;  // all ranks, ranked by step_share
  std::vector<std::string> warnings;
};

struct AnalyzeOptions {
  std::string step_marker;  // empty: detect
};

}  // namespace cuprobe
