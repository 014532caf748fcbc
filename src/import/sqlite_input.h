// An SQLite file given as input (a run file, an Nsight Systems export), read
// at its newest committed data with nothing created beside it. Alone, it is
// opened in place, immutable. With a -wal beside it (transactions committed
// but not yet checkpointed into the file) or a -journal (a transaction cut
// short), reading it right would make SQLite write beside the input (a -shm,
// a rollback): the file and that companion are copied to a private directory
// and the copy is opened, so the WAL is applied, or the journal rolled back,
// there. The input and its companions are left as they are.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "import/temp_dir.h"
#include "store/sqlite_db.h"

namespace cuprobe {

class SqliteInput {
 public:
  // Throws Error (SQLite's reason) when it cannot be opened; InputError
  // (naming shown_as) when the copy cannot be made.
  SqliteInput(const std::string& path, const std::string& shown_as);
  SqliteDb& db() { return *db_; }
  // "-wal" or "-journal" when the file was read through a copy with it; "" when opened in place.
  const std::string& companion() const { return companion_; }

 private:
  std::optional<TempDir> dir_;
  std::unique_ptr<SqliteDb> db_;
  std::string companion_;
};

// An input's SQLite failure (an Error whose text may start with "path: " or "shown_as: ") as one InputError
// naming shown_as: "unreadable <what>: <SQLite's reason>".
[[noreturn]] void throw_unreadable_sqlite(const Error& e, const std::string& path, const std::string& shown_as,
                                          const std::string& what);

}  // namespace cuprobe
