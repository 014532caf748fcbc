// The in-memory profile every importer produces and every analysis reads.
// Standard library only. Times are integer nanoseconds on the trace's own
// clock (absolute where the source gives an absolute base).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/import_stats.h"
#include "model/kinds.h"
#include "model/op_inputs.h"
#include "model/string_table.h"

namespace cuprobe {

using TimeNs = std::int64_t;

// kGraph: one launch of a whole CUDA graph, its nodes unseen (`record --graphs whole`).
enum class GpuActivityKind : std::uint8_t { kKernel, kMemcpy, kMemset, kGraph };

struct GpuActivity {
  GpuActivityKind kind = GpuActivityKind::kKernel;
  MemcpyKind memcpy_kind = MemcpyKind::kUnknown;
  StringId name = kNoString;
  TimeNs start = 0;
  TimeNs end = 0;  // end >= start after import
  std::int32_t device = -1;
  std::int32_t pid = -1;  // the process that launched it, where the source says (run files)
  std::int64_t stream = -1;
  std::int64_t correlation = -1;  // links to the CPU launch (CpuRange::correlation)
  std::int64_t external_id = -1;  // Kineto's "External id": the launching operator's (CpuRange::external_id)
  std::int64_t graph_id = -1;     // CUDA graph this node ran in, -1 if none
  std::int64_t bytes = -1;        // memcpy/memset size when known
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t registers_per_thread = -1;
  std::int32_t shared_memory_bytes = -1;
  // A collective's communicator (process group) where the source names it (Kineto's "Process Group Name",
  // "Process Group Description" and "Process Group Ranks" on NCCL kernels: "pg 0 (default_pg) ranks [0, 1]");
  // kNoString where it does not.
  StringId communicator = kNoString;

  TimeNs duration() const { return end - start; }
};

// What a CPU-side range is, as far as the analyses care.
enum class CpuRangeKind : std::uint8_t {
  kAnnotation,  // user annotation / NVTX range / record_function
  kRuntime,     // CUDA runtime or driver API call (launches carry a correlation)
  kOperator,    // framework operator (aten::*)
  kOther,
  kPython,  // a frame of the user's Python code (torch.profiler with_stack=True; model/python_frame.h)
};

struct CpuRange {
  CpuRangeKind kind = CpuRangeKind::kOther;
  StringId name = kNoString;
  TimeNs start = 0;
  TimeNs end = 0;
  std::int64_t pid = -1;
  std::int64_t tid = -1;
  std::int64_t correlation = -1;  // runtime/driver calls only
  std::int64_t external_id = -1;  // Kineto's "External id" (operators; their launches and kernels repeat it)
  std::int32_t inputs = -1;       // operators recorded with shapes: index into Profile::op_inputs
  // torch's record_param_comms operator: its collective's communicator (GpuActivity::communicator), which its kernels
  // (the same External id) carry themselves only in newer traces.
  StringId communicator = kNoString;
};

// One hardware-counter sample over [start, end) on one GPU (cuprobe's own runs).
struct CounterSample {
  std::int32_t device = -1;
  TimeNs start = 0;
  TimeNs end = 0;
  StringId metric = kNoString;
  double value = 0.0;
};

struct DeviceInfo {
  std::int32_t id = -1;
  std::string name;
  std::int32_t sm_count = 0;
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int64_t memory_bytes = 0;
};

// A process the source names (run files: the processes table).
struct ProcessInfo {
  std::int64_t pid = -1;
  std::string command;
  std::optional<int> rank;  // from the process's RANK (torchrun)
  std::optional<int> world_size;
};

struct Profile {
  std::string file;
  std::string source;  // "kineto", "cuprobe-run"
  std::optional<int> rank;
  std::optional<int> world_size;
  std::vector<DeviceInfo> devices;
  StringTable strings;
  std::vector<GpuActivity> gpu;  // sorted by start after import
  std::vector<CpuRange> cpu;     // sorted by start after import
  std::vector<CounterSample> counters;
  // When each event the source recorded but the import did not keep began (torch.profiler's Python frames outside
  // the user's code): the profiler's own host cost counts them (gpu_idle, launch_bound). Sorted after import.
  std::vector<TimeNs> unkept_starts;
  std::vector<OpInputs> op_inputs;  // distinct operator argument sets (CpuRange::inputs)
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<ProcessInfo> processes;  // empty where the source has no process table
  bool complete = true;                // false when the source says it was cut short
  ImportStats stats;                   // what the import counted instead of failing
  // The recorder's own messages (run files: killed command, cut stream, counters
  // unavailable...), each shown to the user; stats counts them too.
  std::vector<std::string> notices;

  std::string_view name_of(StringId id) const { return strings.view(id); }
  void sort_by_time();
};

}  // namespace cuprobe
