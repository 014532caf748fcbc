// The tables that users of Holistic Trace Analysis and `nsys stats` open first,
// per rank: idle time by cause per stream, launch delays per kernel, GPU time per
// annotation, the runtime API summary, copies by kind, queue length per stream,
// communication beside computation as HTA counts it.
// Plain data; each is computed by its own file (idle_time, launch_stats,
// annotation_time, api_summary, copy_summary, queue_length, hta_comm_overlap) and defined in
// docs/analyze-tables.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuprobe {

// HTA get_idle_time_breakdown: a gap between consecutive activities of one stream is host wait when the later one's
// launch call started after the earlier one ended, else kernel wait when shorter than the threshold, else other.
struct StreamIdle {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::int64_t gaps = 0;  // positive gaps between consecutive activities
  double host_wait_ms = 0;
  double kernel_wait_ms = 0;
  double other_ms = 0;
  double idle_ms() const { return host_wait_ms + kernel_wait_ms + other_ms; }
};

struct IdleBreakdown {
  double kernel_wait_threshold_us = 0;  // HTA's consecutive_kernel_delay
  bool launches_known = false;          // without launch calls no gap can be host wait
  std::vector<StreamIdle> streams;      // by device, then stream
  StreamIdle total;                     // the streams summed (device and stream -1)
  // Medians over steps of each cause summed over the streams (a gap belongs to the step of the activity that ends
  // it); 0 without steps.
  double step_host_wait_median_ms = 0;
  double step_kernel_wait_median_ms = 0;
  double step_other_median_ms = 0;
};

// HTA get_cuda_kernel_launch_stats, per kernel name: the launch call's CPU duration and the launch delay (the
// activity's GPU start minus the end of its launch call).
struct LaunchRow {
  std::string name;
  std::int64_t launches = 0;
  double cpu_median_us = 0, cpu_p90_us = 0, cpu_max_us = 0;
  double delay_median_us = 0, delay_p90_us = 0, delay_max_us = 0;
  double delay_total_ms = 0;
  std::int64_t cpu_outliers = 0;    // launch calls longer than LaunchStats::cpu_cutoff_us
  std::int64_t delay_outliers = 0;  // delays longer than LaunchStats::delay_cutoff_us
  std::int64_t short_kernels = 0;   // GPU duration shorter than the launch call's
};

struct LaunchStats {
  double cpu_cutoff_us = 0;        // HTA's runtime_cutoff
  double delay_cutoff_us = 0;      // HTA's launch_delay_cutoff
  LaunchRow all;                   // every launch of the rank (name "(all)"); launches 0 without launch calls
  std::vector<LaunchRow> kernels;  // by total delay, largest first
};

// GPU time of the activities launched inside each annotation (NVTX range, record_function), nested ones counted
// for every enclosing name (nsys nvtx_kern_sum); names differing only in a trailing "#<digits>" are one row.
struct AnnotationRow {
  std::string name;
  std::int64_t ranges = 0;           // instances of the name
  std::int64_t ranges_with_gpu = 0;  // instances that launched GPU work
  std::int64_t activities = 0;
  double gpu_ms = 0;       // summed durations of those activities
  double gpu_span_ms = 0;  // per instance, first start to last end of its activities, summed
  double share = 0;        // gpu_ms of the rank's summed activity time
  double per_step_ms = 0;  // gpu_ms inside steps / steps (0 without steps)
};

// nsys cuda_api_sum: runtime/driver calls by name.
struct ApiRow {
  std::string name;
  std::int64_t calls = 0;
  double total_ms = 0;
  double mean_us = 0, median_us = 0, max_us = 0;
};

// nsys cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum: copies by direction, and memsets.
struct CopyRow {
  std::string kind;  // "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "unknown", "memset"
  std::int64_t count = 0;
  std::int64_t sized = 0;  // of count, those whose byte count is known
  double bytes = 0;        // summed over the sized ones
  double time_ms = 0;
  double gbps = 0;  // bytes / the sized ones' time (GB/s, 1e9 bytes); 0 when none is sized
};

// HTA get_queue_length_summary: launches on a stream whose activity has not started yet (+1 at the launch call's
// start, -1 at the activity's GPU start), over the stream's time from its first launch to its last start.
struct QueueRow {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::int64_t launches = 0;
  double mean_per_event = 0;      // HTA's: pandas describe() of the value after each change (launch or start)
  double mean_time_weighted = 0;  // the value weighted by how long it held, first to last change
  std::int64_t max = 0;
};

// HTA get_comm_comp_overlap and the kernel-type table of get_gpu_kernel_breakdown, per rank over HTA's window.
// HTA's kernel types by name (hta/utils/utils.py get_kernel_type): communication `^nccl.*Kernel`, memory (copies,
// memsets, `^Memcpy|^Memset|^dma`), computation the rest unless the name holds "Memcpy" or "Sync" (HTA's "other");
// each type's intervals merged over the whole rank (every GPU and stream together: HTA's one frame per rank).
struct HtaCommOverlap {
  std::int64_t communication_kernels = 0;
  double communication_ms = 0;  // the union of the communication kernels
  double computation_ms = 0;    // the union of the computation kernels
  double overlap_ms = 0;        // both at once
  // get_comm_comp_overlap's comp_comm_overlap_pctg: 100 × overlap ÷ communication (HTA rounds it to 2 decimals;
  // this is not rounded); 0 without communication kernels (HTA: NaN).
  double comp_comm_overlap_pctg = 0;
  // get_gpu_kernel_breakdown's kernel_type_df rows: COMPUTATION, COMMUNICATION, COMPUTATION overlapping COMMUNICATION.
  double computation_only_ms() const { return computation_ms - overlap_ms; }
  double communication_only_ms() const { return communication_ms - overlap_ms; }
};

// The window HTA's tables cover. HTA's TraceAnalysis defaults to include_last_profiler_step=False: when the trace
// has two or more ProfilerStep names, its Trace._filter_irrelevant_gpu_kernels keeps the CPU events that start
// before the last ProfilerStep starts and the GPU activities whose correlation id one of them carries.
// Idle time, launch delays, queue length and the communication overlap are computed over that window
// (docs/analyze-tables.md).
struct HtaWindowInfo {
  bool keep_all = false;  // --hta-window all: the whole trace (HTA's include_last_profiler_step=True)
  bool cut = false;       // the last ProfilerStep was left out
  std::string last_step;  // its name ("ProfilerStep#12")
  double cut_at_ms = 0;   // where it starts, ms after the trace's first event
  std::int64_t activities_left_out = 0;
  double gpu_ms_left_out = 0;  // their summed durations
};

}  // namespace cuprobe
