#include "store/sqlite_db.h"

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <utility>

#include "common/error.h"

namespace cuprobe {
namespace {

// file:PATH?immutable=1 with the characters a URI gives meaning to escaped.
std::string immutable_uri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c < 0x21 || c >= 0x7f) {
      static const char hex[] = "0123456789ABCDEF";
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri + "?immutable=1";
}

[[noreturn]] void throw_sqlite(sqlite3* db, const std::string& what) {
  throw Error(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

}  // namespace

SqliteStatement::SqliteStatement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK) {
    throw_sqlite(db, "SQL prepare failed");
  }
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  if (std::isnan(value))
    sqlite3_bind_null(stmt_, index);
  else
    sqlite3_bind_double(stmt_, index, value);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view value) {
  sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

bool SqliteStatement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw_sqlite(db_, "SQL step failed");
}

void SqliteStatement::run() {
  step();
  reset();
}

void SqliteStatement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool SqliteStatement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
bool SqliteStatement::is_integer(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER; }
std::int64_t SqliteStatement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }
double SqliteStatement::real(int column) const { return sqlite3_column_double(stmt_, column); }

std::string SqliteStatement::text(int column) const {
  const unsigned char* p = sqlite3_column_text(stmt_, column);
  if (!p) return {};
  return std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

SqliteDb::SqliteDb(const std::string& path, Mode mode) : path_(path) {
  int flags = mode == Mode::kCreate     ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
              : mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                                        : SQLITE_OPEN_READWRITE;
  // immutable=1: no locks, and a -journal beside the file is neither replayed nor deleted.
  std::string name = mode == Mode::kReadOnly ? immutable_uri(path) : path;
  if (mode == Mode::kCreate) {
    std::error_code ec;
    auto dir = std::filesystem::path(path).parent_path();
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
      throw Error(path + ": cannot create: directory " + dir.string() + " does not exist");
    }
  }
  if (sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    std::string reason = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(path + ": cannot open: " + reason);
  }
  sqlite3_busy_timeout(db_, 2000);
  if (mode == Mode::kReadOnly) exec("PRAGMA query_only=1");
}

SqliteDb::~SqliteDb() { sqlite3_close_v2(db_); }

void SqliteDb::exec(std::string_view sql) {
  std::string copy(sql);
  char* message = nullptr;
  if (sqlite3_exec(db_, copy.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string reason = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    throw Error(path_ + ": " + reason);
  }
}

bool SqliteDb::has_table(std::string_view name) {
  auto stmt = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  stmt.bind(1, name);
  return stmt.step();
}

bool SqliteDb::has_column(std::string_view table, std::string_view column) {
  auto stmt = prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2");
  stmt.bind(1, table).bind(2, column);
  return stmt.step();
}

}  // namespace cuprobe
