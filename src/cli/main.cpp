// cuprobe VERB [ARGS...] (cli/cuprobe_main.h).
#include <cstdlib>  // defines __GLIBC__ where it is glibc

#include "cli/cuprobe_main.h"

#ifdef __GLIBC__
#include <malloc.h>

namespace {
// glibc raises its mmap and trim thresholds each time a large block is freed (up to 32 MiB): a large trace's vectors
// then come from the heap, and pages freed there stay resident. Fixed at glibc's defaults (128 KiB), before any
// static constructor allocates, each large block goes back to the system when freed: analyze's peak on a 346 MiB
// trace fell from 91 to 81 MiB (docs/validation.md).
[[gnu::constructor(101)]] void fix_malloc_thresholds() {
  constexpr int kGlibcDefault = 128 * 1024;
  mallopt(M_MMAP_THRESHOLD, kGlibcDefault);
  mallopt(M_TRIM_THRESHOLD, kGlibcDefault);
}
}  // namespace
#endif

int main(int argc, char** argv) { return cuprobe::cuprobe_main(argc, argv); }
