// The wire format between the injected library (libcuprobe_inject.so, inside
// the recorded process) and the `cuprobe record` parent. This is the ONE header
// both sides share, so it holds the standard library only (and model/kinds.h,
// the enums whose numbers it carries, standard library only too).
//
// Transport: a Unix stream socket whose path the parent puts in
// CUPROBE_RECORD_SOCKET. Each injected process opens one connection and sends
// frames: an 8-byte FrameHeader followed by `length` payload bytes. The first
// frame is always kHello. Payloads are fixed-layout structs (same machine,
// same ABI on both ends; sizes are pinned by static_assert), some followed by
// a string tail (the rest of the payload, no terminator). The parent sends
// kControl frames back on the same connection.
//
// Frozen once written: types and fields are only ever added, never renumbered.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "model/kinds.h"

namespace cuprobe::wire {

inline constexpr std::uint32_t kMagic = 0x42525043;     // "CPRB"
inline constexpr std::uint16_t kVersion = 3;            // 3: activity records share one Activity header
inline constexpr std::uint32_t kMaxPayload = 1u << 20;  // anything larger is garbage

inline constexpr const char* kSocketEnv = "CUPROBE_RECORD_SOCKET";
inline constexpr const char* kStartEnv = "CUPROBE_RECORD_START";       // "on" | "off" | "cuda-profiler"
inline constexpr const char* kApiEnv = "CUPROBE_RECORD_API";           // "1": also record runtime API calls
inline constexpr const char* kFlushMsEnv = "CUPROBE_RECORD_FLUSH_MS";  // worker flush period
inline constexpr const char* kGraphsEnv = "CUPROBE_RECORD_GRAPHS";     // "node" (default) | "whole" | "events"
// "1": when another tool in the process asks for CUPTI, keep it (default: hand it over).
inline constexpr const char* kKeepCuptiEnv = "CUPROBE_RECORD_KEEP_CUPTI";
inline constexpr const char* kHwTraceEnv = "CUPROBE_RECORD_HW_TRACE";  // "auto" (default) | "off"
inline constexpr const char* kKindsEnv = "CUPROBE_RECORD_KINDS";  // ActivityKind names, comma-separated (default all)

enum class Type : std::uint16_t {
  kHello = 1,
  kString = 2,
  kKernel = 3,
  kMemcpy = 4,
  kMemset = 5,
  kRange = 6,
  kClockSync = 7,
  kLoss = 8,
  kNotice = 9,
  kGoodbye = 10,
  kDevice = 11,
  kCapture = 12,
  kControl = 13,  // parent -> library
  kGraphLaunch = 14,
};

struct FrameHeader {
  std::uint16_t type;
  std::uint16_t reserved;
  std::uint32_t length;  // payload bytes after this header
};
static_assert(sizeof(FrameHeader) == 8);

// + tail: the process's command line, arguments separated by ' '.
struct Hello {
  std::uint32_t magic;
  std::uint16_t version;
  std::uint16_t reserved;
  std::uint32_t cupti_version;  // cuptiGetVersion(); 0 when CUPTI could not be loaded
  std::uint32_t reserved2;
  std::int64_t pid;
  std::int64_t ppid;
  std::int64_t realtime_ns;  // CLOCK_REALTIME and the CUPTI clock read back to back
  std::int64_t cupti_ns;
};
static_assert(sizeof(Hello) == 48);

// One more reading of both clocks, sent with every flush: the parent converts
// CUPTI timestamps with the offset from the latest sync.
struct ClockSync {
  std::int64_t realtime_ns;
  std::int64_t cupti_ns;
};
static_assert(sizeof(ClockSync) == 16);

enum class StringKind : std::uint32_t { kKernelName = 0, kRangeName = 1, kApiName = 2 };

// + tail: the string. Ids are per connection, assigned by the library from 1.
struct String {
  std::uint32_t id;
  std::uint32_t kind;  // StringKind
};
static_assert(sizeof(String) == 8);

// What every GPU activity record starts with (kernel, graph launch, memcpy,
// memset). Timestamps in CUPTI's clock; ClockSync converts.
struct Activity {
  std::int64_t start;
  std::int64_t end;
  std::int64_t correlation;
  std::int64_t graph_id;  // 0 = not in a graph (a graph launch: the launched graph)
  std::int64_t stream;
  std::int32_t device;
  std::uint32_t reserved;
};
static_assert(sizeof(Activity) == 48);

// Version 3 dropped the CUDA context id, which no reader used.
struct Kernel : Activity {
  std::uint32_t name_id;
  std::int32_t grid[3];
  std::int32_t block[3];
  std::int32_t registers;
  std::int32_t static_shared;
  std::int32_t dynamic_shared;
};
static_assert(sizeof(Kernel) == 88);

// One CUDA graph launch as a whole (--graphs whole): its nodes are not traced.
struct GraphLaunch : Activity {};
static_assert(sizeof(GraphLaunch) == 48);

struct Memcpy : Activity {
  std::int64_t bytes;
  std::uint8_t kind;  // MemcpyKind (model/kinds.h)
  std::uint8_t reserved2[7];
};
static_assert(sizeof(Memcpy) == 64);

struct Memset : Activity {
  std::int64_t bytes;
};
static_assert(sizeof(Memset) == 56);

struct Range {
  std::int64_t start;
  std::int64_t end;
  std::int64_t tid;
  std::int64_t correlation;  // API calls only; -1 otherwise
  std::uint32_t name_id;
  std::uint16_t kind;  // RangeKind (model/kinds.h)
  std::uint16_t reserved;
};
static_assert(sizeof(Range) == 40);

enum class LossReason : std::uint32_t {
  kCuptiDropped = 1,   // CUPTI had no buffer space (cuptiActivityGetNumDroppedRecords)
  kQueueFull = 2,      // the library's hand-off queue to its worker was full
  kSendFailed = 3,     // the parent went away
  kBadRecord = 4,      // a CUPTI record the library could not read
  kUnhandledKind = 5,  // CUPTI records of a kind the library does not encode; detail = the kind
  kGraphUntimed = 6,   // --graphs events: graph launches whose events could not be recorded or read
};

struct Loss {
  std::uint64_t count;
  std::uint32_t reason;  // LossReason
  std::uint32_t detail;  // kUnhandledKind: the CUpti_ActivityKind; else 0
};
static_assert(sizeof(Loss) == 16);

enum class NoticeCode : std::uint32_t {
  kInfo = 0,
  kCuptiBusy = 1,   // another tool holds CUPTI (subscriber or activity API)
  kCuptiError = 2,  // a CUPTI call failed: tail says which
  kNvtxUnavailable = 3,
  kKernelTiming = 4,  // tail: "hardware" or "software: why not hardware"
  kRank = 5,          // tail: "RANK" or "RANK WORLD_SIZE", from the process's torchrun environment
  kGraphTiming = 6,   // tail: "events" or "cupti: why not events" (--graphs events)
  kCuptiYielded = 7,  // another tool in the process asked for CUPTI and got it: kernels are not recorded from now
};

// + tail: one line of text.
struct Notice {
  std::uint32_t code;  // NoticeCode
  std::uint32_t reserved;
};
static_assert(sizeof(Notice) == 8);

// + tail: device name.
struct Device {
  std::int32_t id;
  std::int32_t sm_count;
  std::int32_t compute_major;
  std::int32_t compute_minor;
  std::int64_t memory_bytes;
  std::uint8_t uuid[16];  // the physical GPU, whatever the process's CUDA_VISIBLE_DEVICES
};
static_assert(sizeof(Device) == 40);

// The library switched collection on or off (cudaProfilerStart/Stop, or a
// parent kControl). Timestamp on CLOCK_REALTIME.
struct Capture {
  std::int64_t realtime_ns;
  std::uint32_t on;
  std::uint32_t reason;  // 0 parent control, 1 cudaProfilerStart/Stop, 2 CUPTI handed to another tool
};
static_assert(sizeof(Capture) == 16);

struct Goodbye {
  std::int64_t realtime_ns;
  std::uint64_t records;  // activity records sent over the connection's life
};
static_assert(sizeof(Goodbye) == 16);

enum class ControlCommand : std::uint32_t { kEnable = 1, kDisable = 2, kFlush = 3 };

struct Control {
  std::uint32_t command;  // ControlCommand
  std::uint32_t reserved;
};
static_assert(sizeof(Control) == 8);

// Fixed part size of each type; 0 for unknown types.
constexpr std::uint32_t fixed_size(Type t) {
  switch (t) {
    case Type::kHello:
      return sizeof(Hello);
    case Type::kString:
      return sizeof(String);
    case Type::kKernel:
      return sizeof(Kernel);
    case Type::kMemcpy:
      return sizeof(Memcpy);
    case Type::kMemset:
      return sizeof(Memset);
    case Type::kRange:
      return sizeof(Range);
    case Type::kClockSync:
      return sizeof(ClockSync);
    case Type::kLoss:
      return sizeof(Loss);
    case Type::kNotice:
      return sizeof(Notice);
    case Type::kGoodbye:
      return sizeof(Goodbye);
    case Type::kDevice:
      return sizeof(Device);
    case Type::kCapture:
      return sizeof(Capture);
    case Type::kControl:
      return sizeof(Control);
    case Type::kGraphLaunch:
      return sizeof(GraphLaunch);
  }
  return 0;
}

// Whether a type carries a string tail after its fixed part.
constexpr bool has_tail(Type t) {
  return t == Type::kHello || t == Type::kString || t == Type::kNotice || t == Type::kDevice;
}

// Appends one frame to `out` (any container with append(const char*, size_t)).
template <typename Out, typename Fixed>
void append_frame(Out& out, Type type, const Fixed& fixed, std::string_view tail = {}) {
  static_assert(std::is_trivially_copyable_v<Fixed>);
  FrameHeader h{static_cast<std::uint16_t>(type), 0, static_cast<std::uint32_t>(sizeof(Fixed) + tail.size())};
  out.append(reinterpret_cast<const char*>(&h), sizeof h);
  out.append(reinterpret_cast<const char*>(&fixed), sizeof fixed);
  if (!tail.empty()) out.append(tail.data(), tail.size());
}

// Reads a fixed struct from the start of a payload that was checked to be long enough.
template <typename Fixed>
Fixed read_fixed(const char* payload) {
  static_assert(std::is_trivially_copyable_v<Fixed>);
  Fixed f;
  std::memcpy(&f, payload, sizeof f);
  return f;
}

}  // namespace cuprobe::wire
