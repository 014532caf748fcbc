// One row of an SQLite query read into a Profile, type-checked column by
// column (shared by the run-file and Nsight Systems importers). SQLite stores
// whatever it is given: a value that is not an integer where one is expected,
// or a time or size out of range, spoils the row. The caller skips a spoiled
// row; keep() counts why in the Profile's import statistics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/profile.h"
#include "store/sqlite_db.h"

namespace cuprobe {

class SqliteRow {
 public:
  SqliteRow(const SqliteStatement& s, const char* table) : s_(s), table_(table) {}

  std::int64_t integer(int c, const char* column);
  std::int64_t integer_or(int c, const char* column, std::int64_t fallback);
  std::int32_t int32_or(int c, const char* column, std::int32_t fallback);
  TimeNs time(int c, const char* column);
  // Text, repaired to UTF-8 (counted when it had to be).
  std::string text(int c, Profile& p);
  std::int64_t out_of_range(int c, const char* column) { return spoil(ImportStat::kValueOutOfRange, c, column); }
  // True when the row is usable; otherwise counts why it is not.
  bool keep(Profile& p);

 private:
  std::int64_t spoil(ImportStat why, int c, const char* column);

  const SqliteStatement& s_;
  const char* table_;
  std::optional<ImportStat> problem_;
  std::string example_;
};

// An interval that ends before it starts ends where it starts (counted).
void repair_reversed_interval(Profile& p, TimeNs start, TimeNs& end, const char* what);

}  // namespace cuprobe
