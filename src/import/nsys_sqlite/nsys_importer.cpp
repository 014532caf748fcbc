#include "import/nsys_sqlite/nsys_importer.h"

#include <filesystem>
#include <unordered_map>

#include "common/error.h"
#include "import/nsys_sqlite/api_name.h"
#include "import/nsys_sqlite/copy_kind.h"
#include "import/nsys_sqlite/export_columns.h"
#include "import/nsys_sqlite/export_gpus.h"
#include "import/nsys_sqlite/global_id.h"
#include "import/nsys_sqlite/rank_split.h"
#include "import/sqlite_input.h"
#include "import/sqlite_row.h"
#include "store/sqlite_db.h"

namespace cuprobe {
namespace {

// NVTX_EVENTS.eventType values that are not ranges: category, mark, thread
// name, domain create and destroy. Any other type with an end is a range
// (59 push/pop, 60 start/end, and whatever later versions add).
bool is_nvtx_range_type(std::int64_t type) {
  return type != 33 && type != 34 && type != 39 && type != 75 && type != 76;
}

class ExportReader {
 public:
  ExportReader(SqliteDb& db, Profile& p, const std::string& file) : db_(db), p_(p), file_(file) {}

  void read() {
    read_strings();
    read_export_metadata();
    CopyKinds copy_kinds(db_, p_, file_);
    read_kernels();
    read_memcpys(copy_kinds);
    read_memsets();
    read_api_calls("CUPTI_ACTIVITY_KIND_RUNTIME");
    read_api_calls("CUPTI_ACTIVITY_KIND_DRIVER");
    read_nvtx();
  }

  const std::vector<std::int64_t>& gpu_pid() const { return gpu_pid_; }

 private:
  void read_strings() {
    if (!has_export_table(db_, "StringIds", file_)) {
      throw InputError(file_, "not an Nsight Systems export (no StringIds table)");
    }
    static constexpr ExportColumn kColumns[] = {{"id", true}, {"value", true}};
    auto s = db_.prepare(select_export_columns(db_, "StringIds", kColumns, p_, file_));
    while (s.step()) {
      SqliteRow row(s, "StringIds");
      std::int64_t id = row.integer(0, "id");
      std::string value = row.text(1, p_);
      if (row.keep(p_)) strings_[id] = p_.strings.intern(value);
    }
  }

  void read_export_metadata() {
    if (!has_export_table(db_, "META_DATA_EXPORT", file_)) return;
    static constexpr ExportColumn kColumns[] = {{"name", true}, {"value", true}};
    auto s = db_.prepare(select_export_columns(db_, "META_DATA_EXPORT", kColumns, p_, file_));
    while (s.step()) {
      SqliteRow row(s, "META_DATA_EXPORT");
      std::string name = row.text(0, p_);
      if (name == "EXPORT_PRODUCT_VERSION" || name == "EXPORT_SCHEMA_VERSION") {
        p_.metadata.emplace_back("nsys_" + name, row.text(1, p_));
      }
    }
  }

  // The interned string of a StringIds id in `column`; an id not in StringIds is counted.
  std::optional<StringId> string_of(const SqliteStatement& s, int column, const char* what) {
    if (s.is_null(column) || !s.is_integer(column)) return std::nullopt;
    auto it = strings_.find(s.int64(column));
    if (it != strings_.end()) return it->second;
    p_.stats.add(ImportStat::kUnknownNameId, std::string(what) + " " + std::to_string(s.int64(column)));
    return std::nullopt;
  }

  // Columns 0-5 of every GPU activity query.
  static constexpr ExportColumn kActivityColumns[] = {{"start", true}, {"end", true},     {"deviceId"},
                                                      {"streamId"},    {"correlationId"}, {"globalPid"}};

  std::vector<ExportColumn> activity_columns(std::initializer_list<ExportColumn> more) {
    std::vector<ExportColumn> columns(std::begin(kActivityColumns), std::end(kActivityColumns));
    columns.insert(columns.end(), more);
    return columns;
  }

  // Reads columns 0-5; the caller adds the rest and keeps the activity when the row is usable.
  GpuActivity read_activity(SqliteRow& row, GpuActivityKind kind, std::int64_t& pid) {
    GpuActivity a;
    a.kind = kind;
    a.start = row.time(0, "start");
    a.end = row.time(1, "end");
    a.device = row.int32_or(2, "deviceId", -1);
    a.stream = row.integer_or(3, "streamId", -1);
    a.correlation = row.integer_or(4, "correlationId", -1);
    if (a.correlation == 0) a.correlation = -1;  // the export writes 0 for none (its columns are NOT NULL)
    std::int64_t global_pid = row.integer_or(5, "globalPid", -1);
    pid = global_pid < 0 ? -1 : pid_of_global_id(global_pid);
    return a;
  }

  void keep_activity(GpuActivity& a, std::int64_t pid, const char* what) {
    repair_reversed_interval(p_, a.start, a.end, what);
    if (a.end == a.start) p_.stats.add(ImportStat::kZeroDurationGpu, p_.name_of(a.name));
    if (a.correlation < 0) p_.stats.add(ImportStat::kNoCorrelation, p_.name_of(a.name));
    a.pid = static_cast<std::int32_t>(pid);  // at most 24 bits
    p_.gpu.push_back(a);
    gpu_pid_.push_back(pid);
  }

  void read_kernels() {
    const std::string table = "CUPTI_ACTIVITY_KIND_KERNEL";
    if (!has_export_table(db_, table, file_)) return;
    auto columns = activity_columns({{"demangledName"},
                                     {"shortName"},
                                     {"gridX"},
                                     {"gridY"},
                                     {"gridZ"},
                                     {"blockX"},
                                     {"blockY"},
                                     {"blockZ"},
                                     {"registersPerThread"},
                                     {"staticSharedMemory"},
                                     {"dynamicSharedMemory"},
                                     {"graphId"}});
    auto s = db_.prepare(select_export_columns(db_, table, columns, p_, file_));
    static constexpr const char* kDims[] = {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ"};
    while (s.step()) {
      SqliteRow row(s, table.c_str());
      std::int64_t pid = -1;
      GpuActivity a = read_activity(row, GpuActivityKind::kKernel, pid);
      for (int i = 0; i < 3; ++i) {
        a.grid[i] = row.int32_or(8 + i, kDims[i], 0);
        a.block[i] = row.int32_or(11 + i, kDims[3 + i], 0);
      }
      a.registers_per_thread = row.int32_or(14, "registersPerThread", -1);
      std::int64_t st = row.integer_or(15, "staticSharedMemory", -1);
      std::int64_t dyn = row.integer_or(16, "dynamicSharedMemory", -1);
      a.graph_id = row.integer_or(17, "graphId", -1);
      if (a.graph_id == 0) a.graph_id = -1;
      if (st >= 0 || dyn >= 0) {
        st = std::max<std::int64_t>(st, 0);
        dyn = std::max<std::int64_t>(dyn, 0);
        if (st > INT32_MAX || dyn > INT32_MAX - st) {
          row.out_of_range(15, "staticSharedMemory");
        } else {
          a.shared_memory_bytes = static_cast<std::int32_t>(st + dyn);
        }
      }
      if (!row.keep(p_)) continue;
      std::optional<StringId> name = string_of(s, 6, "demangledName");
      if (!name) name = string_of(s, 7, "shortName");
      if (!name) {
        p_.stats.add(ImportStat::kEventMissingField, "a kernel without a name (demangledName, shortName)");
        continue;
      }
      a.name = *name;
      keep_activity(a, pid, "kernel");
    }
  }

  void read_memcpys(const CopyKinds& copy_kinds) {
    const std::string table = "CUPTI_ACTIVITY_KIND_MEMCPY";
    if (!has_export_table(db_, table, file_)) return;
    auto s = db_.prepare(select_export_columns(db_, table, activity_columns({{"copyKind"}, {"bytes"}}), p_, file_));
    while (s.step()) {
      SqliteRow row(s, table.c_str());
      std::int64_t pid = -1;
      GpuActivity a = read_activity(row, GpuActivityKind::kMemcpy, pid);
      std::int64_t kind = row.integer_or(6, "copyKind", 0);
      a.bytes = row.integer_or(7, "bytes", -1);
      if (!row.keep(p_)) continue;
      a.memcpy_kind = copy_kinds(kind, p_);
      a.name = p_.strings.intern(memcpy_activity_name(a.memcpy_kind));
      keep_activity(a, pid, "memcpy");
    }
  }

  void read_memsets() {
    const std::string table = "CUPTI_ACTIVITY_KIND_MEMSET";
    if (!has_export_table(db_, table, file_)) return;
    auto s = db_.prepare(select_export_columns(db_, table, activity_columns({{"bytes"}}), p_, file_));
    StringId name = p_.strings.intern(kMemsetActivityName);
    while (s.step()) {
      SqliteRow row(s, table.c_str());
      std::int64_t pid = -1;
      GpuActivity a = read_activity(row, GpuActivityKind::kMemset, pid);
      a.bytes = row.integer_or(6, "bytes", -1);
      a.name = name;
      if (row.keep(p_)) keep_activity(a, pid, "memset");
    }
  }

  void read_api_calls(const std::string& table) {
    if (!has_export_table(db_, table, file_)) return;
    static constexpr ExportColumn kColumns[] = {
        {"start", true}, {"end", true}, {"globalTid"}, {"correlationId"}, {"nameId", true}};
    auto s = db_.prepare(select_export_columns(db_, table, kColumns, p_, file_));
    std::unordered_map<StringId, StringId> api_names;  // nsys's name -> without its version suffix
    while (s.step()) {
      SqliteRow row(s, table.c_str());
      CpuRange r;
      r.kind = CpuRangeKind::kRuntime;
      r.start = row.time(0, "start");
      r.end = row.time(1, "end");
      set_thread(r, row.integer_or(2, "globalTid", -1));
      r.correlation = row.integer_or(3, "correlationId", -1);
      if (r.correlation == 0) r.correlation = -1;
      if (!row.keep(p_)) continue;
      std::optional<StringId> name = string_of(s, 4, "nameId");
      if (!name) name = p_.strings.intern("<unknown>");
      auto [it, added] = api_names.emplace(*name, kNoString);
      if (added) it->second = p_.strings.intern(api_name_without_version(p_.name_of(*name)));
      r.name = it->second;
      repair_reversed_interval(p_, r.start, r.end, "API call");
      p_.cpu.push_back(r);
    }
  }

  void read_nvtx() {
    const std::string table = "NVTX_EVENTS";
    if (!has_export_table(db_, table, file_)) return;
    static constexpr ExportColumn kColumns[] = {{"start", true}, {"end", true}, {"eventType"},
                                                {"text"},        {"textId"},    {"globalTid"}};
    auto s = db_.prepare(select_export_columns(db_, table, kColumns, p_, file_));
    while (s.step()) {
      std::int64_t type = s.is_integer(2) ? s.int64(2) : 59;
      if (!is_nvtx_range_type(type)) continue;
      SqliteRow row(s, table.c_str());
      if (s.is_null(1)) {
        p_.stats.add(ImportStat::kEventMissingField, "an NVTX range without an end (not closed when the trace ended)");
        continue;
      }
      CpuRange r;
      r.kind = CpuRangeKind::kAnnotation;
      r.start = row.time(0, "start");
      r.end = row.time(1, "end");
      set_thread(r, row.integer_or(5, "globalTid", -1));
      std::optional<StringId> name;
      if (!s.is_null(3)) {
        name = p_.strings.intern(row.text(3, p_));
      } else {
        name = string_of(s, 4, "textId");
      }
      if (!row.keep(p_)) continue;
      if (!name) {
        p_.stats.add(ImportStat::kEventMissingField, "an NVTX range without a name (text, textId)");
        continue;
      }
      r.name = *name;
      repair_reversed_interval(p_, r.start, r.end, "NVTX range");
      p_.cpu.push_back(r);
    }
  }

  static void set_thread(CpuRange& r, std::int64_t global_tid) {
    if (global_tid < 0) return;
    r.pid = pid_of_global_id(global_tid);
    r.tid = tid_of_global_id(global_tid);
  }

  SqliteDb& db_;
  Profile& p_;
  const std::string& file_;
  std::unordered_map<std::int64_t, StringId> strings_;
  std::vector<std::int64_t> gpu_pid_;  // parallel to p_.gpu
};

}  // namespace

std::vector<Profile> import_nsys_sqlite(const std::string& path, const std::string& shown_as) {
  const std::string& name = shown_as.empty() ? path : shown_as;
  if (!std::filesystem::exists(path)) throw InputError(name, "no such file");
  Profile p;
  p.file = name;
  p.source = "nsys";
  try {
    SqliteInput input(path, name);
    SqliteDb& db = input.db();
    ExportReader reader(db, p, name);
    reader.read();
    ExportGpus gpus(db, p, name);
    std::vector<std::int64_t> gpu_pid = reader.gpu_pid();
    return split_by_process_and_gpu(std::move(p), gpu_pid, gpus);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw_unreadable_sqlite(e, path, name, "Nsight Systems export");
  }
}

}  // namespace cuprobe
