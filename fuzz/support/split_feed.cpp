#include "support/split_feed.h"

#include <cstdio>
#include <cstdlib>

namespace cuprobe::fuzz {

void split_mismatch(const char* what) {
  std::fprintf(stderr, "==FUZZ== the parse depends on where the stream was split: %s differs\n", what);
  std::abort();
}

}  // namespace cuprobe::fuzz
