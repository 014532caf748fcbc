// Steps of a trace whose work runs as CUDA graph replays (serving engines'
// decode), found before periodicity because a replay is the step's own unit:
// a whole-graph launch (`record --graphs whole`) is one replay, and so are the
// kernels of one launch seen node by node (same correlation id as their
// cudaGraphLaunch; a graph id where the source records one). When several
// graphs replay per step (piecewise capture), the step is the repeating group
// of replays, starting at the replay with the longest GPU idle before it.
// Work before the first step's replay (eager warm-up, capture) is in no step;
// eager work between replays belongs to the step it follows.
#pragma once

#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// Fills out.summary.steps and out.activity_step; false (nothing filled) when the
// trace holds fewer replays than make steps, or when they carry under a fifth
// of the GPU time from the first replay on (small graphs inside eager steps).
bool assign_by_graph_replays(const Profile& profile, StepAssignment& out);

}  // namespace cuprobe
