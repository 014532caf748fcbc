// What a reader may do with hostile input: return, or throw cuprobe::Error
// (one line naming the file, position and reason). Any other exception reaches
// the user as a poor message (`basic_string::_M_create`, no file, no reason),
// so the fuzz targets report it as a finding, like a sanitizer error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "common/error.h"

namespace cuprobe::fuzz {

template <class F>
void input_errors_only(F&& read) {
  try {
    read();
  } catch (const Error&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "==FUZZ== a reader threw an exception other than cuprobe::Error: %s\n", e.what());
    std::abort();
  }
}

}  // namespace cuprobe::fuzz
