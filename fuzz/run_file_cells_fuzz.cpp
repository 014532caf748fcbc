// A valid run file (support/sample_run_file.h) changed by a few fuzzer-chosen
// SQL edits (support/sql_cell_edits.h), then loaded with load_trace_file.
// Reaches the value checks that random page bytes rarely get past SQLite to.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>

#include "support/load_and_check.h"
#include "support/sample_run_file.h"
#include "support/scratch_file.h"
#include "support/sql_cell_edits.h"

namespace {

using namespace cuprobe::fuzz;

const SqlBase& base() {
  static const SqlBase b = [] {
    ScratchFile file("base.cuprobe");
    write_sample_run_file(file.path());
    return describe_sql_base(file.path());
  }();
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ScratchFile file("run.cuprobe");
  FuzzedDataProvider in(data, size);
  const std::string& path = file.write(base().bytes);
  apply_cell_edits(path, base(), in);
  load_and_check(path);
  return 0;
}
