// The GPUs of one rank. A process may drive several (Hugging Face
// device_map="auto" runs the layers on them one after another; DataParallel
// runs a replica on each): steps are found once for the process, its GPU busy
// time is the time any of its GPUs works (so the idle left is the host's), and
// each GPU gets its own busy and idle time here, with the part of its idle
// spent while another of the rank's GPUs works: waiting for it, a pipeline
// bubble no host-side fix removes (docs/findings.md pipeline_bubble).
#pragma once

#include "analysis/analysis_result.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// Fills out.devices and out.overlapped_step_ms; out's window, GPU busy time and steps must be filled.
void fill_device_usage(const Profile& profile, const StepAssignment& steps, RankAnalysis& out);

}  // namespace cuprobe
