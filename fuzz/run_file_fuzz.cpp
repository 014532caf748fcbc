// A run file's raw bytes through load_profile (SQLite's own page checks, then
// the importer's schema and value checks).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "support/load_and_check.h"
#include "support/scratch_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuprobe::fuzz;
  static ScratchFile file("run.cuprobe");
  load_and_check(file.write(std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
