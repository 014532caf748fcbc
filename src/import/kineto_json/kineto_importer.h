// Imports a Kineto / Chrome-trace JSON file (torch.profiler, SGLang and vLLM
// traces) into a Profile, streaming: memory grows with the events kept, not
// with the file. Keys may come in any order; timestamps may be fractional µs
// relative to baseTimeNanoseconds or absolute.
#pragma once

#include <string>

#include "import/byte_source.h"
#include "model/profile.h"

namespace cuprobe {

Profile import_kineto_json(const std::string& path);
Profile import_kineto_json(ByteSource& source, const std::string& display_name);

}  // namespace cuprobe
