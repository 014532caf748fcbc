// Every threshold a finding uses, in one place (documented in docs/findings.md).
// Shares are fractions of GPU busy time unless the name says "step".
#pragma once

namespace cuprobe::thresholds {

// Findings fire on shares of the GPU time in steps (of the whole window without steps).
// copy_cast_dominant: copies and casts take a large share of GPU time.
inline constexpr double kCopyCastMedium = 0.20;

// low_tensor_core_share: little GPU time in tensor-core kernels.
inline constexpr double kTensorCoreLow = 0.30;

// gpu_idle: GPU idle for this fraction of each step (or of the window without steps).
inline constexpr double kIdleMedium = 0.50;

// pipeline_bubble: one process's GPUs taking turns; the step would shrink by at
// least this share were their work overlapped.
inline constexpr double kBubbleMedium = 0.20;

// launch_bound: kernels this short (median) with the GPU idle at least kLaunchBoundIdle of the step.
inline constexpr double kShortKernelUs = 10.0;
inline constexpr double kLaunchBoundIdle = 0.30;
inline constexpr int kLaunchBoundMinKernelsPerStep = 50;
// ...and its claim: GPU idle in gaps between activities no longer than this (a
// launch explains them; longer gaps are host work).
inline constexpr double kLaunchGapUs = 20.0;

// gpu_idle and launch_bound on torch.profiler traces: the host time the profiler itself spends per event it records
// (operator, runtime call, Python frame), taken off the traced step before the idle is judged and claimed. On the
// zoo's host-bound H200 traces (torch 2.11; docs/validation.md) the traced step exceeds the CUDA-event step by
// 2-7 us per recorded event; 2 is the low end, so that the estimate errs towards the traced step.
inline constexpr double kProfilerHostUsPerEvent = 2.0;
// ...and its high end, for gpu_idle's claim (all of the idle, which must hold however much of it was the profiler's):
// the step without the profiler at its shortest.
inline constexpr double kProfilerHostUsPerEventHigh = 7.0;
// The same for `cuprobe record --api` (run files), per runtime call it records: on the zoo's H200 run files the
// recorded step exceeded the CUDA-event step by 0.4-1.3 us per recorded call (eager decode 0.5, pool cast 0.4, KV
// preallocated 1.3).
inline constexpr double kRecordApiUsPerCall = 0.4;
inline constexpr double kRecordApiUsPerCallHigh = 1.3;

// The what-ifs of run files without launch calls: an activity that starts within this of the end of the work before
// it was queued behind that work (back-to-back kernels on the H200 start 1-2 us apart); later, the host launched it
// late (findings_what_if.h, gpu_path_saving_ms).
inline constexpr double kQueuedGapUs = 4.0;

// communication_dominant: collectives take this share of GPU time.
inline constexpr double kCommunicationMedium = 0.25;

// collective_wait: a collective on one rank takes this much longer than the
// same collective on its fastest peer, in total ...
inline constexpr double kCollectiveWaitMinMs = 1.0;
// ... and that excess is at least this share of the rank's communication time.
inline constexpr double kCollectiveWaitShare = 0.20;

// graphs_recorded_whole: whole CUDA graph launches (contents unseen) take at least
// this share of GPU busy time. Above kOpaqueGraphNoTensorFinding, the tensor-core
// share cannot be judged and low_tensor_core_share stays silent.
inline constexpr double kOpaqueGraphShare = 0.20;
inline constexpr double kOpaqueGraphNoTensorFinding = 0.50;

// Work per kernel: a kernel that reaches less than this share of its nearer roof
// (memory bandwidth or the FLOP rate of its dtype) is "latency" bound: too little
// work per launch, or waiting, to fill the GPU.
inline constexpr double kLatencyBoundPeakShare = 0.10;

// copy_cast_dominant's what-if: the share of the memory bandwidth peak a plain
// copy reaches (measured on the H200: a bf16 copy moves 4.25 TB/s of 4.8, 88%).
inline constexpr double kCopyBandwidthShare = 0.88;

// Severity of every finding, from its gain (the step time its fix saves that no higher-ranked finding claims,
// finding_gains.h) as a share of the step: high from kGainHigh, medium from kGainMedium, else low (so a what-if
// under 1% of the step is always low).
inline constexpr double kGainHigh = 0.25;
inline constexpr double kGainMedium = 0.05;

// straggler_rank: a rank's late arrivals at collectives cost every rank at least this share of the step (median
// over its steps), at two calls or more.
inline constexpr double kStragglerMinShare = 0.02;

}  // namespace cuprobe::thresholds
