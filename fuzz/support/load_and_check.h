// The fuzz targets' way into an importer: load_profile(path), the CLI's own
// entry point (sniffing, decompression, the run-file/Kineto dispatch), then the
// Profile contract on what it returns; only cuprobe::Error may escape.
#pragma once

#include <string>

namespace cuprobe::fuzz {

void load_and_check(const std::string& path);

}  // namespace cuprobe::fuzz
