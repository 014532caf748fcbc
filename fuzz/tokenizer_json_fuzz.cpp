// A tokenizer.json as bench reads it (issue 39): the input is written to a
// private temporary file (support/scratch_file.h, removed at exit) and loaded
// by BpeTokenCounter; a loaded counter counts a short text. Any input gives a counter or one InputError, never a crash,
// a stack overflow (nested pre-tokenizers) or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.h"
#include "load/bpe_tokenizer.h"
#include "support/scratch_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static cuprobe::fuzz::ScratchFile file("tokenizer.json");
  const std::string& path = file.write(std::string_view(reinterpret_cast<const char*>(data), size));
  try {
    auto counter = cuprobe::BpeTokenCounter::load(path);
    (void)counter->count("Hello world, 12345 tokens!");
  } catch (const cuprobe::Error&) {
  }
  return 0;
}
