// The report's timeline of one step: GPU activities (lane = stream, coloured
// by category) and CPU operators/annotations (lane = nesting depth) inside the
// step's window, in ms from the window's start. A step with more events than
// the page should carry keeps the longest ones and says how many it left out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "analysis/analysis_result.h"
#include "model/profile.h"

namespace cuprobe {

inline constexpr std::size_t kTimelineMaxGpuEvents = 4000;
inline constexpr std::size_t kTimelineMaxCpuEvents = 2000;

// {"label", "start_ms", "end_ms", "gpu": [[stream, start, dur, category, name]],
//  "cpu": [[depth, start, dur, name]], "names": [...], "left_out": n}
nlohmann::ordered_json step_timeline(const Profile& profile, const RankAnalysis& rank, std::size_t step,
                                     const std::string& label);

// A step's span on the GPU clock: its first GPU start and its step time (Step::time); the CPU
// range for a step without GPU work.
std::pair<TimeNs, TimeNs> step_span(const Step& step);

// The typical and the slowest step as analyze chose them (StepSummary::typical_step,
// slowest_step), as timelines over their spans; one when they are the same step; none without steps.
nlohmann::ordered_json typical_and_slowest(const Profile& profile, const RankAnalysis& rank);

// A number rounded to 4 significant digits: the page carries what a chart can show.
double round4(double v);

}  // namespace cuprobe
