// Imports rocprofv3's JSON output (`rocprofv3 --kernel-trace --output-format json`,
// with --hip-trace, --memory-copy-trace, --marker-trace as recorded) into a
// Profile: kernel dispatches and memory copies become GPU activities, HIP runtime
// calls runtime ranges, ROCTx ranges annotations, as a Kineto ROCm trace's would.
// The format (docs/trace-formats.md "rocprofv3 JSON") is rocprofiler-sdk's
// source/docs/rocprofv3-schema.json: {"rocprofiler-sdk-tool": [one object per
// process]}, names in "strings" and "kernel_symbols", records in "buffer_records".
// Streaming like the Kineto reader; tolerant about fields, strict about structure.
#pragma once

#include <string>

#include "import/byte_source.h"
#include "model/profile.h"

namespace cuprobe {

// Which files are rocprofv3 JSON is decided by import/trace_format.h (kRocprofv3Json).
Profile import_rocprofv3_json(const std::string& path);
Profile import_rocprofv3_json(ByteSource& source, const std::string& display_name);

}  // namespace cuprobe
