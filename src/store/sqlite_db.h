// A thin RAII wrapper over the SQLite C API: one connection, prepared
// statements, errors thrown as cuprobe::Error with SQLite's message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace cuprobe {

class SqliteStatement {
 public:
  SqliteStatement() = default;
  SqliteStatement(sqlite3* db, std::string_view sql);
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  // Binding is 1-based, as in SQLite.
  SqliteStatement& bind(int index, std::int64_t value);
  SqliteStatement& bind(int index, double value);  // NaN is stored as NULL
  SqliteStatement& bind(int index, std::string_view value);
  SqliteStatement& bind_null(int index);

  bool step();  // true while a row is available
  void run();   // step once for a statement that returns no row, then reset
  void reset();

  bool is_null(int column) const;
  bool is_integer(int column) const;  // stored as an INTEGER (not TEXT, REAL or NULL)
  std::int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  // kReadOnly opens the file immutable and query_only: nothing beside it
  // (a -journal) is read, replayed or deleted, and no statement can write.
  enum class Mode { kCreate, kReadOnly, kReadWrite };
  SqliteDb(const std::string& path, Mode mode);
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;
  ~SqliteDb();

  void exec(std::string_view sql);
  SqliteStatement prepare(std::string_view sql) { return SqliteStatement(db_, sql); }
  bool has_table(std::string_view name);  // a real table, not a view
  bool has_column(std::string_view table, std::string_view column);
  const std::string& path() const { return path_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace cuprobe
