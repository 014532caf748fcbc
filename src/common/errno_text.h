// An errno as words and its name, for messages: "No space left on device (ENOSPC)".
#pragma once

#include <string>

namespace cuprobe {

std::string errno_text(int err);

}  // namespace cuprobe
