// cuprobe VERB [ARGS...] (cli/cuprobe_main.h).
#include <cstdlib>  // defines __GLIBC__ where it is glibc

#include "cli/cuprobe_main.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // glibc raises its mmap and trim thresholds each time a large block is freed (up to 32 MiB): a large trace's
  // vectors then come from the heap, and pages freed there stay resident. Fixed at glibc's defaults (128 KiB), each
  // large block goes back to the system when freed: analyze's peak on a 346 MiB trace fell from 91 to 81 MiB.
  constexpr int kGlibcDefault = 128 * 1024;
  mallopt(M_MMAP_THRESHOLD, kGlibcDefault);
  mallopt(M_TRIM_THRESHOLD, kGlibcDefault);
#endif
  return cuprobe::cuprobe_main(argc, argv);
}
