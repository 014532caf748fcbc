#include "import/sqlite_row.h"

#include "common/utf8.h"
#include "model/time_range.h"

namespace cuprobe {

std::int64_t SqliteRow::integer(int c, const char* column) {
  if (!s_.is_integer(c)) return spoil(ImportStat::kWrongValueType, c, column);
  return s_.int64(c);
}

std::int64_t SqliteRow::integer_or(int c, const char* column, std::int64_t fallback) {
  return s_.is_null(c) ? fallback : integer(c, column);
}

std::int32_t SqliteRow::int32_or(int c, const char* column, std::int32_t fallback) {
  std::int64_t v = integer_or(c, column, fallback);
  if (v < INT32_MIN || v > INT32_MAX) return static_cast<std::int32_t>(spoil(ImportStat::kValueOutOfRange, c, column));
  return static_cast<std::int32_t>(v);
}

TimeNs SqliteRow::time(int c, const char* column) {
  std::int64_t v = integer(c, column);
  if (!time_in_range(v)) return spoil(ImportStat::kTimeOutOfRange, c, column);
  return v;
}

std::string SqliteRow::text(int c, Profile& p) {
  std::string t = s_.text(c);
  if (is_valid_utf8(t)) return t;
  p.stats.add(ImportStat::kInvalidUtf8, t);
  return repair_utf8(t);
}

bool SqliteRow::keep(Profile& p) {
  if (problem_) p.stats.add(*problem_, example_);
  return !problem_;
}

std::int64_t SqliteRow::spoil(ImportStat why, int c, const char* column) {
  if (!problem_) {
    problem_ = why;
    example_ =
        std::string(table_) + "." + column + " = " + (s_.is_null(c) ? std::string("NULL") : "'" + s_.text(c) + "'");
  }
  return 0;
}

void repair_reversed_interval(Profile& p, TimeNs start, TimeNs& end, const char* what) {
  if (end < start) {
    p.stats.add(ImportStat::kReversedInterval, what);
    end = start;
  }
}

}  // namespace cuprobe
