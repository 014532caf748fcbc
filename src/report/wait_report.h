// `cuprobe wait`'s result line: "ready: URL after 12.3 s; models: a, b".
#pragma once

#include <string>

#include "load/readiness.h"

namespace cuprobe {

std::string wait_ready_line(const std::string& server, const ReadinessResult& result);

}  // namespace cuprobe
