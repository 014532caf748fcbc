// Kineto JSON through load_profile: the first byte picks plain, gzip or xz
// (and optionally cuts the compressed stream short, support/compress.h); the
// rest is the trace text. The plain text is also read by both readers of traceEvents, which must
// agree (support/kineto_readers_agree.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "support/compress.h"
#include "support/kineto_readers_agree.h"
#include "support/load_and_check.h"
#include "support/scratch_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuprobe::fuzz;
  if (size == 0) return 0;
  static ScratchFile file("trace.json");
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  load_and_check(file.write(wrap(wrap_choice(data[0]), text)));
  kineto_readers_agree(text);
  return 0;
}
