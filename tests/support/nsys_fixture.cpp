#include "support/nsys_fixture.h"

#include "store/sqlite_db.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {

std::string nsys_fixture(const std::string& sql_name, const std::string& then_sql, const std::string& file_name) {
  std::string path = temp_dir() + "/" + file_name;
  SqliteDb db(path, SqliteDb::Mode::kCreate);
  db.exec(slurp(data_path(sql_name)));
  if (!then_sql.empty()) db.exec(then_sql);
  return path;
}

}  // namespace cuprobe::test
