#include "import/nsys_sqlite/export_columns.h"

#include <string_view>
#include <unordered_set>

#include "common/error.h"

namespace cuprobe {
namespace {

std::string quoted(std::string_view identifier) {
  std::string out = "\"";
  for (char c : identifier) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::unordered_set<std::string> columns_of(SqliteDb& db, const std::string& table) {
  std::unordered_set<std::string> out;
  auto s = db.prepare("SELECT name FROM pragma_table_info(?1)");
  s.bind(1, std::string_view(table));
  while (s.step()) out.insert(s.text(0));
  return out;
}

}  // namespace

bool has_export_table(SqliteDb& db, const std::string& name, const std::string& file) {
  if (db.has_table(name)) return true;
  auto s = db.prepare("SELECT type FROM sqlite_master WHERE name = ?1");
  s.bind(1, std::string_view(name));
  if (!s.step()) return false;
  throw InputError(file, "not a readable Nsight Systems export ('" + name + "' is a " + s.text(0) + ", not a table)");
}

std::string select_export_columns(SqliteDb& db, const std::string& table, std::span<const ExportColumn> columns,
                                  Profile& p, const std::string& file) {
  const std::unordered_set<std::string> present = columns_of(db, table);
  std::string sql = "SELECT ";
  for (const ExportColumn& c : columns) {
    std::string_view names = c.names;
    std::string chosen;
    for (std::size_t start = 0; start <= names.size() && chosen.empty();) {
      std::size_t bar = names.find('|', start);
      std::string_view name = names.substr(start, bar == std::string_view::npos ? names.npos : bar - start);
      if (present.count(std::string(name))) chosen = quoted(name);
      if (bar == std::string_view::npos) break;
      start = bar + 1;
    }
    if (chosen.empty()) {
      std::string what = table + "." + std::string(names.substr(0, names.find('|')));
      if (c.required) throw InputError(file, "not a readable Nsight Systems export (no column " + what + ")");
      p.stats.add(ImportStat::kColumnMissing, what);
      chosen = "NULL";
    }
    sql += (&c == columns.data() ? "" : ", ") + chosen;
  }
  return sql + " FROM " + quoted(table);
}

}  // namespace cuprobe
