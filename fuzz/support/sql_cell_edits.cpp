#include "support/sql_cell_edits.h"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>

#include "common/error.h"
#include "store/sqlite_db.h"

namespace cuprobe::fuzz {
namespace {

std::string quoted(const std::string& identifier) { return "\"" + identifier + "\""; }

std::int64_t some_integer(FuzzedDataProvider& in) {
  static constexpr std::int64_t kEdges[] = {0,
                                            -1,
                                            1,
                                            std::numeric_limits<std::int64_t>::min(),
                                            std::numeric_limits<std::int64_t>::max(),
                                            std::numeric_limits<std::int64_t>::max() / 2 + 1,
                                            std::numeric_limits<std::int32_t>::max(),
                                            std::numeric_limits<std::int32_t>::min(),
                                            std::int64_t{1} << 32,
                                            std::int64_t{1} << 53,
                                            -(std::int64_t{1} << 62),
                                            1764000000000000000};
  if (in.ConsumeBool()) return kEdges[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kEdges) - 1)];
  return in.ConsumeIntegral<std::int64_t>();
}

double some_real(FuzzedDataProvider& in) {
  static constexpr double kEdges[] = {
      0.0,    -0.0,    1e300, -1e300, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
      9.3e18, -9.3e18, 0.5};
  if (in.ConsumeBool()) return kEdges[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kEdges) - 1)];
  return in.ConsumeFloatingPoint<double>();
}

std::string blob_literal(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "X'";
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out + "'";
}

// Returns false after replacing a table by a view: an edit reading an endless
// view would hang here, before the importer runs.
bool edit(SqliteDb& db, const SqlBase& base, FuzzedDataProvider& in) {
  const SqlBase::Column& col = base.columns[in.ConsumeIntegralInRange<std::size_t>(0, base.columns.size() - 1)];
  const std::string table = quoted(col.table);
  const std::string row = "rowid = (SELECT rowid FROM " + table + " LIMIT 1 OFFSET " +
                          std::to_string(in.ConsumeIntegralInRange(0, 7)) + ")";
  const std::string set = "UPDATE " + table + " SET " + quoted(col.name) + " = ";
  switch (in.ConsumeIntegralInRange(0, 8)) {
    case 0:
      db.prepare(set + "?1 WHERE " + row).bind(1, some_integer(in)).run();
      break;
    case 1:
      db.prepare(set + "?1 WHERE " + row).bind(1, some_real(in)).run();
      break;
    case 2: {
      std::string text = in.ConsumeRandomLengthString(64);
      db.prepare(set + "?1 WHERE " + row).bind(1, std::string_view(text)).run();
      break;
    }
    case 3:
      db.exec(set + blob_literal(in.ConsumeRandomLengthString(16)) + " WHERE " + row);
      break;
    case 4:
      db.exec(set + "NULL WHERE " + row);
      break;
    case 5:
      db.exec("DELETE FROM " + table + " WHERE " + row);
      break;
    case 6:
      db.exec("INSERT INTO " + table + " SELECT * FROM " + table + " WHERE " + row);
      break;
    case 7:
      db.exec("DROP TABLE " + table);
      break;
    case 8: {
      std::string old = quoted(col.table + "_old");
      db.exec("ALTER TABLE " + table + " RENAME TO " + old);
      if (in.ConsumeBool()) {
        db.exec("CREATE VIEW " + table + " AS SELECT * FROM " + old);
      } else {
        db.exec("CREATE VIEW " + table + " AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT " +
                old + ".* FROM " + old + ", r");
      }
      return false;
    }
  }
  return true;
}

}  // namespace

SqlBase describe_sql_base(const std::string& path) {
  SqlBase out;
  {
    SqliteDb db(path, SqliteDb::Mode::kReadOnly);
    std::vector<std::string> tables;
    auto t =
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    while (t.step()) tables.push_back(t.text(0));
    for (const auto& table : tables) {
      auto c = db.prepare("SELECT name FROM pragma_table_info(?1)");
      c.bind(1, std::string_view(table));
      while (c.step()) out.columns.push_back({table, c.text(0)});
    }
  }
  std::ifstream in(path, std::ios::binary);
  out.bytes.assign(std::istreambuf_iterator<char>(in), {});
  return out;
}

void apply_cell_edits(const std::string& path, const SqlBase& base, FuzzedDataProvider& in) {
  SqliteDb db(path, SqliteDb::Mode::kReadWrite);
  bool more = true;
  for (int edits = in.ConsumeIntegralInRange(1, 6); more && edits > 0 && in.remaining_bytes() > 0; --edits) {
    try {
      more = edit(db, base, in);
    } catch (const Error&) {
      // An edit SQLite refuses (a constraint, a table already gone): the file stays as it was.
    }
  }
}

}  // namespace cuprobe::fuzz
