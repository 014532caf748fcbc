// Switches for measuring what recording costs a program, each one piece of the
// library's work turned off or back to its earlier form, so that one GPU run
// climbs the ladder from "library loaded, CUPTI never touched" to a full
// recording (bench/gpu/record_model_cost.sh, docs/record.md "Cost"). Read once
// from CUPROBE_INJECT_* at InitializeInjection; unset means a normal recording.
// Not user options: `cuprobe record` never sets them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cuprobe::inject {

// Which CUPTI callbacks the library subscribes to.
enum class SubscribeMode {
  kAuto,  // default: state and resource domains; driver-API callbacks only where an option needs them
  kNone,  // no cuptiSubscribe at all
  kAll,   // as before: cuProfilerStart/Stop callbacks always, whatever the options
};

// Where the activity buffers come from.
enum class BufferMode {
  kPool,    // default: pre-zeroed buffers recycled by the worker (activity_buffer_pool.h)
  kMalloc,  // as before: a fresh aligned_alloc per request, freed after encoding, CUPTI zeroes it
  kNone,    // no buffers registered: CUPTI attached with no activity at all
};

struct InjectKnobs {
  bool load_cupti = true;                          // CUPROBE_INJECT_CUPTI=0: say hello, never load CUPTI
  SubscribeMode subscribe = SubscribeMode::kAuto;  // CUPROBE_INJECT_SUBSCRIBE=auto|none|all
  BufferMode buffers = BufferMode::kPool;          // CUPROBE_INJECT_BUFFERS=pool|malloc|none
  std::size_t buffer_bytes = 8u << 20;             // CUPROBE_INJECT_BUFFER_MIB=1..256
  std::optional<std::string> kinds;                // CUPROBE_INJECT_KINDS: "none" or kind names; replaces --kinds
  std::optional<bool> graph_trace;                 // CUPROBE_INJECT_GRAPH_TRACE=0|1: CUPTI's graph tracing off / on
  bool device_records = true;                      // CUPROBE_INJECT_DEVICE=0: no CUPTI device records
  bool worker_off_target_cpus = true;  // CUPROBE_INJECT_WORKER=target-cpus: the worker stays where the target runs
  std::vector<std::string> problems;   // "NAME=VALUE" not understood (said as a notice, the default kept)
  std::string description;             // "CUPROBE_INJECT_X=v ..." of those set; empty for a normal recording
};

using GetEnv = std::function<const char*(const char*)>;

InjectKnobs read_inject_knobs(const GetEnv& getenv);

}  // namespace cuprobe::inject
