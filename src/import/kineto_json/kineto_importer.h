// Imports a Kineto / Chrome-trace JSON file (torch.profiler, SGLang and vLLM
// traces) into a Profile, streaming: memory grows with the events kept, not
// with the file. Keys may come in any order; timestamps may be fractional µs
// relative to baseTimeNanoseconds or absolute. Tolerant about fields, never
// about structure: a number written as a string is read, a mistyped optional
// field is ignored, an event without what cuprobe needs is skipped, each
// counted in Profile::stats; bad JSON or a truncated file is an InputError.
#pragma once

#include <cstdint>
#include <string>

#include "import/byte_source.h"
#include "model/profile.h"

namespace cuprobe {

// Uncompressed files larger than split_above are parsed by two threads (each
// half; the split point is verified, see element_boundary.h). The environment
// variable CUPROBE_SPLIT_ABOVE (bytes), when set, replaces the default: tests
// compare the whole output of both paths through the command line with it.
// Compressed files are inflated on a thread of their own (read_ahead.h).
inline constexpr std::uint64_t kDefaultSplitAbove = 48ull << 20;  // smaller files parse too fast to gain

// Which reader reads the events of traceEvents: the streaming cursor (json_cursor.h), or
// simdjson's On-Demand API over bounded windows (simd_window.h) where cuprobe was built with
// simdjson (libsimdjson-dev); both give the same Profile. The cursor is the default: simdjson
// takes 5-11% less CPU to import, which analyze's CPU time shows only on .gz (3-6%; equal on the
// plain trace) for up to 5 MiB more memory (docs/validation.md, issue 38).
// CUPROBE_KINETO_READER=simdjson in the environment picks simdjson where built in: tests compare
// both through the command line with it.
enum class KinetoReader { kCursor, kSimdjson };
bool kineto_simdjson_built();
KinetoReader default_kineto_reader();  // the cursor, unless the environment says simdjson (and it is built)

Profile import_kineto_json(const std::string& path, std::uint64_t split_above = kDefaultSplitAbove,
                           KinetoReader reader = default_kineto_reader());
Profile import_kineto_json(ByteSource& source, const std::string& display_name,
                           KinetoReader reader = default_kineto_reader());

}  // namespace cuprobe
