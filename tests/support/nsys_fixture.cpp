#include "support/nsys_fixture.h"

#include <fstream>
#include <sstream>

#include "store/sqlite_db.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {

std::string nsys_fixture(const std::string& sql_name, const std::string& then_sql, const std::string& file_name) {
  std::ifstream in(data_path(sql_name));
  std::ostringstream sql;
  sql << in.rdbuf();
  std::string path = temp_dir() + "/" + file_name;
  SqliteDb db(path, SqliteDb::Mode::kCreate);
  db.exec(sql.str());
  if (!then_sql.empty()) db.exec(then_sql);
  return path;
}

}  // namespace cuprobe::test
