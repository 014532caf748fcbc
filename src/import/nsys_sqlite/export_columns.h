// The columns cuprobe reads from one table of an Nsight Systems SQLite export.
// Exports differ by nsys version (columns come and go; NVIDIA documents the
// schema as subject to change): a missing optional column reads as NULL and is
// counted (column_missing), a missing required one makes the file unreadable.
#pragma once

#include <span>
#include <string>

#include "model/profile.h"
#include "store/sqlite_db.h"

namespace cuprobe {

struct ExportColumn {
  const char* names;  // the column's name, or alternatives "a|b" (the first present is read)
  bool required = false;
};

// "SELECT c1, c2, ... FROM table" with the columns in the order given, so the
// caller reads column i as ExportColumn i. Throws InputError (file, reason)
// when the table is a view or lacks a required column.
std::string select_export_columns(SqliteDb& db, const std::string& table, std::span<const ExportColumn> columns,
                                  Profile& p, const std::string& file);

// True when `name` is a real table (not a view); throws InputError when it is
// something else by that name (a view could run any query, even an endless one).
bool has_export_table(SqliteDb& db, const std::string& name, const std::string& file);

}  // namespace cuprobe
