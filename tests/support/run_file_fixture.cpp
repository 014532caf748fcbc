#include "support/run_file_fixture.h"

#include "store/run_file_schema.h"
#include "store/run_file_writer.h"
#include "store/sqlite_db.h"

namespace cuprobe::test {

std::string small_run_file(const std::string& path, const std::string& then_sql) {
  {
    RunFileWriter w(path, false);
    for (int i = 0; i < 2; ++i) {
      RunKernelRow k;
      k.pid = 10;
      k.device = 0;
      k.start_ns = 1000 + i * 1000;
      k.end_ns = 1500 + i * 1000;
      k.name_id = w.name_id(i == 0 ? "gemm" : "softmax");
      w.add_kernel(k);
    }
    w.finish(kRunStatusComplete);
  }
  if (!then_sql.empty()) SqliteDb(path, SqliteDb::Mode::kReadWrite).exec(then_sql);
  return path;
}

}  // namespace cuprobe::test
