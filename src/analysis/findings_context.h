// What the findings of one rank share (findings.cpp, findings_host.cpp): the
// profile and what was computed from it, and the figures findings are judged
// on — GPU time in steps when there are steps (warm-up outside them does not
// count), the whole trace window only when there are none.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/findings_what_if.h"
#include "analysis/kernel_taxonomy.h"
#include "analysis/kernel_work.h"
#include "analysis/launch_context.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// The GPU time findings are judged on: the typical step's (the median over steps with GPU work of each figure, so
// neither warm-up outside the steps nor one slow step decides), the whole window's without steps.
struct JudgedTime {
  std::array<double, kCategoryCount> category_ms{};  // in steps: summed over them (the what-ifs' means)
  std::array<double, kCategoryCount> category_median_ms{};
  double median_total_ms = 0;  // the category medians summed
  double total_ms = 0;         // summed over the steps
};

struct FindingsContext {
  const Profile& profile;
  const std::vector<KernelClass>& classes;
  const StepAssignment& steps;
  RankAnalysis& analysis;
  const WorkAttribution& work;
  LaunchContext launches;
  JudgedTime judged;

  FindingsContext(const Profile& p, const std::vector<KernelClass>& c, const StepAssignment& s, RankAnalysis& a,
                  const WorkAttribution& w);
  WhatIfInputs what_if_inputs() const { return {profile, classes, steps, work, analysis}; }
  double step_ms_now() const { return what_if_inputs().step_ms_now(); }
  bool has_steps() const { return !steps.summary.steps.empty(); }
  double step_count() const { return static_cast<double>(steps.summary.steps.size()); }
  std::string step_word() const { return has_steps() ? "step" : "trace window"; }
  // Activity i is judged on: in a step (every activity without steps).
  bool counted(std::size_t i) const { return !has_steps() || steps.activity_step[i] >= 0; }
  // The steps are CUDA graph replays (whose kernels have no launching operator, so no work from shapes).
  bool graph_replays() const;
  // " (whole trace window: no steps found)" without steps, else "": said wherever a window figure is used.
  std::string window_note() const;
  // A category's share of the GPU time judged on (in steps; without steps, of busy time as the breakdown has it).
  double category_share(Category c) const;
  double tensor_core_share() const;
  // Its GPU time per step (per window without steps).
  double category_per_step_ms(Category c) const;
  // Fraction of step time (of the window without steps) that GPU time per step (per window) explains.
  double step_share_of(double per_step_ms) const;
  const CategoryRow* category(Category c) const;
  std::vector<std::string> top_kernels(Category c, std::size_t n) const;
  // Every judged activity of the category, whole: the time a finding without a projection explains.
  std::vector<std::pair<std::size_t, double>> category_activities(Category c) const;
};

// gpu_idle, launch_bound and pipeline_bubble (findings_host.cpp): the GPU waiting for the host or for another GPU.
void add_host_findings(FindingsContext& ctx);

}  // namespace cuprobe
