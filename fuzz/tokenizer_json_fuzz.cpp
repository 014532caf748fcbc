// A tokenizer.json as bench reads it (issue 39): the input is written to a
// private temporary file and loaded by BpeTokenCounter; a loaded counter counts
// a short text. Any input gives a counter or one InputError, never a crash, a
// stack overflow (nested pre-tokenizers) or a sanitizer report.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "common/error.h"
#include "load/bpe_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/cuprobe_fuzz_tokenizer_" + std::to_string(::getpid()) + ".json";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    auto counter = cuprobe::BpeTokenCounter::load(path);
    (void)counter->count("Hello world, 12345 tokens!");
  } catch (const cuprobe::Error&) {
  }
  return 0;
}
