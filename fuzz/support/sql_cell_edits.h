// Fuzzer-chosen SQL edits on a valid SQLite file (the cell-level targets:
// run_file_cells, nsys_sqlite): a cell set to an extreme integer, a float, a
// text (any bytes, so invalid UTF-8 too), a blob or NULL; a row deleted or
// duplicated; a table dropped, or replaced by a view (an endless recursive one
// included). They reach the importers' value checks, which random page bytes
// rarely get past SQLite to.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <string>
#include <vector>

namespace cuprobe::fuzz {

// A valid file to start each input from: its bytes, and its tables' columns.
struct SqlBase {
  struct Column {
    std::string table, name;
  };
  std::string bytes;
  std::vector<Column> columns;
};

SqlBase describe_sql_base(const std::string& path);

// Applies 1-6 edits the input picks to the file at `path` (a copy of base's bytes).
void apply_cell_edits(const std::string& path, const SqlBase& base, FuzzedDataProvider& in);

}  // namespace cuprobe::fuzz
