// An Nsight Systems export fixture (tests/data/nsys_*.sql, built from the
// documented schema; one byte of the input picks which) changed by a few fuzzer-chosen SQL
// edits (support/sql_cell_edits.h), then loaded with load_trace_file: the
// tables-based dispatch, the nsys importer's column and value checks, and the
// split into ranks by process and GPU.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "store/sqlite_db.h"
#include "support/load_and_check.h"
#include "support/scratch_file.h"
#include "support/sql_cell_edits.h"

namespace {

using namespace cuprobe;
using namespace cuprobe::fuzz;

const std::vector<SqlBase>& bases() {
  static const std::vector<SqlBase> b = [] {
    std::vector<SqlBase> out;
    for (const char* name : {"nsys_decode_small.sql", "nsys_tp2_processes.sql", "nsys_old_schema.sql"}) {
      std::ifstream in(std::string(CUPROBE_TEST_DATA_DIR) + "/" + name);
      std::string sql(std::istreambuf_iterator<char>(in), {});
      if (sql.empty()) {  // nothing would be fuzzed
        std::fprintf(stderr, "fuzz_nsys_sqlite: cannot read %s/%s\n", CUPROBE_TEST_DATA_DIR, name);
        std::abort();
      }
      ScratchFile file("base.sqlite");
      { SqliteDb(file.path(), SqliteDb::Mode::kCreate).exec(sql); }
      out.push_back(describe_sql_base(file.path()));
    }
    return out;
  }();
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ScratchFile file("report.sqlite");
  FuzzedDataProvider in(data, size);
  const SqlBase& base = bases()[in.ConsumeIntegralInRange<std::size_t>(0, bases().size() - 1)];
  const std::string& path = file.write(base.bytes);
  apply_cell_edits(path, base, in);
  load_and_check(path);
  return 0;
}
