#include "import/sqlite_file_kind.h"

#include "common/error.h"
#include "store/sqlite_db.h"

namespace cuprobe {

SqliteFileKind sqlite_file_kind(const std::string& path) {
  try {
    SqliteDb db(path, SqliteDb::Mode::kReadOnly);
    auto has = [&](const char* name) {
      auto s = db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?1");
      s.bind(1, std::string_view(name));
      return s.step();
    };
    if (has("metadata")) return SqliteFileKind::kRunFile;
    if (has("StringIds")) return SqliteFileKind::kNsysExport;
    return SqliteFileKind::kOther;
  } catch (const Error&) {
    return SqliteFileKind::kRunFile;  // unreadable: the run-file reader's messages cover damaged files
  }
}

}  // namespace cuprobe
