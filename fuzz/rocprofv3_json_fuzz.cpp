// rocprofv3 JSON through load_trace_file: byte 0 picks plain, gzip or xz (and
// optionally cuts the compressed stream short, support/compress.h); the rest
// follows a fixed `{"rocprofiler-sdk-tool":`, so that every input is sniffed
// as rocprofv3 (import/trace_format.h) and reaches its reader.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "support/compress.h"
#include "support/load_and_check.h"
#include "support/scratch_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuprobe::fuzz;
  if (size == 0) return 0;
  static ScratchFile file("results.json");
  std::string text = R"({"rocprofiler-sdk-tool":)";
  text.append(reinterpret_cast<const char*>(data) + 1, size - 1);
  load_and_check(file.write(wrap(wrap_choice(data[0]), text)));
  return 0;
}
