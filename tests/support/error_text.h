// The message of the cuprobe::Error a call throws, or "no error".
#pragma once

#include <functional>
#include <string>

#include "common/error.h"

namespace cuprobe::test {

inline std::string error_text(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace cuprobe::test
