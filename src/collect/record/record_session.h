// `cuprobe record`: starts a command with the injection library, receives
// what every CUDA process of it records, samples the GPU counters on the same
// clock and writes it all into one run file as it arrives.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuprobe {

enum class CaptureMode { kAll, kCudaProfiler, kSignal };

struct RecordOptions {
  std::vector<std::string> command;
  std::string output;
  bool force = false;
  std::optional<std::chrono::nanoseconds> delay;
  std::optional<std::chrono::nanoseconds> duration;
  CaptureMode capture = CaptureMode::kAll;
  std::uint64_t max_size = 0;   // bytes; 0 = no limit
  bool api_calls = false;       // also record CUDA runtime API calls (costs more)
  bool keep_cupti = false;      // another tool asking for CUPTI in a recorded process is refused
  std::string graphs = "node";  // node | whole (CUPTI graph tracing) | events (CUDA events at each launch)
  bool hw_trace = true;         // time kernels with the hardware event system where the GPU has one (Blackwell)
  std::string kinds;            // "kernel,memcpy,memset,nvtx" subset; empty = all
  bool counters = true;
  std::chrono::nanoseconds sample_interval = std::chrono::milliseconds(10);
  std::string preset = "triage";
  std::vector<int> counter_gpus;  // cuprobe's CUDA ordinals to sample; empty = every GPU it sees
  std::chrono::nanoseconds drain_grace = std::chrono::seconds(5);  // after the command exits
  std::string inject_library;                                      // empty: next to the cuprobe binary
};

struct RecordOutcome {
  int exit_code = 0;   // the command's: its exit status, or 128 + signal
  std::string status;  // run file status
  std::int64_t kernels = 0, memcpy = 0, memset = 0, ranges = 0, graph_launches = 0, samples = 0, processes = 0,
               losses = 0;
  bool kernels_recorded = false;
  bool counters_recorded = false;
};

RecordOutcome run_record(const RecordOptions& options);

}  // namespace cuprobe
