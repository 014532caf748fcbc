#include "common/errno_text.h"

#include <cstring>

namespace cuprobe {

std::string errno_text(int err) {
  const char* name = ::strerrorname_np(err);
  return std::string(std::strerror(err)) + (name ? std::string(" (") + name + ")" : "");
}

}  // namespace cuprobe
