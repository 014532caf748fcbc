#include "import/sqlite_input.h"

#include <filesystem>

#include "common/error.h"

namespace cuprobe {

SqliteInput::SqliteInput(const std::string& path, const std::string& shown_as) {
  std::error_code ec;
  for (const char* companion : {"-wal", "-journal"}) {
    if (std::filesystem::exists(path + companion, ec)) {
      companion_ = companion;
      break;
    }
  }
  if (companion_.empty()) {
    db_ = std::make_unique<SqliteDb>(path, SqliteDb::Mode::kReadOnly);
    return;
  }
  dir_.emplace();
  std::string copy = dir_->path() + "/input.sqlite";
  std::filesystem::copy_file(path, copy, ec);
  if (!ec) std::filesystem::copy_file(path + companion_, copy + companion_, ec);
  if (ec) {
    throw InputError(shown_as.empty() ? path : shown_as, "cannot copy it with its " + companion_ +
                                                             " to read its newest data: " + ec.message() +
                                                             " (set TMPDIR to a roomier directory)");
  }
  // A connection that may write (to the copy only): SQLite applies the WAL or rolls the journal back as it opens.
  db_ = std::make_unique<SqliteDb>(copy, SqliteDb::Mode::kReadWrite);
  db_->exec("SELECT count(*) FROM sqlite_master; PRAGMA query_only=1");
}

void throw_unreadable_sqlite(const Error& e, const std::string& path, const std::string& shown_as,
                             const std::string& what) {
  std::string reason = e.what();
  for (const std::string& prefix : {path + ": ", shown_as + ": "}) {
    if (reason.rfind(prefix, 0) == 0) reason = reason.substr(prefix.size());
  }
  throw InputError(shown_as, "unreadable " + what + ": " + reason);
}

}  // namespace cuprobe
