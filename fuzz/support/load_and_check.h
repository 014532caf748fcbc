// The fuzz targets' way into an importer: load_trace_file(path), the CLI's own
// entry point (sniffing, decompression, the run-file/nsys/Kineto dispatch), then the
// Profile contract on every rank it returns; only cuprobe::Error may escape.
#pragma once

#include <string>

namespace cuprobe::fuzz {

void load_and_check(const std::string& path);

}  // namespace cuprobe::fuzz
