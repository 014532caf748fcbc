#include "import/run_file/run_file_importer.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "common/error.h"
#include "common/utf8.h"
#include "import/byte_source.h"
#include "import/sqlite_input.h"
#include "import/sqlite_row.h"
#include "import/temp_dir.h"
#include "model/time_range.h"
#include "store/run_file_schema.h"
#include "store/sqlite_db.h"

namespace cuprobe {
namespace {

constexpr std::size_t kMaxNoticeBytes = 400;

// Every GPU activity query starts with these columns.
constexpr const char* kActivityColumns = "device, stream, start_ns, end_ns, correlation, graph_id";

// Reads kActivityColumns (columns 0-5) and the pid (the query's last column) of the current row.
GpuActivity read_activity(SqliteRow& row, Profile& p, GpuActivityKind kind, const char* what, int pid_column) {
  GpuActivity a;
  a.kind = kind;
  a.device = row.int32_or(0, "device", -1);
  a.stream = row.integer_or(1, "stream", -1);
  a.start = row.time(2, "start_ns");
  a.end = row.time(3, "end_ns");
  repair_reversed_interval(p, a.start, a.end, what);
  a.correlation = row.integer_or(4, "correlation", -1);
  a.graph_id = row.integer_or(5, "graph_id", -1);
  a.pid = row.int32_or(pid_column, "pid", -1);
  return a;
}

std::string activity_query(const char* more_columns, const char* table) {
  return std::string("SELECT ") + kActivityColumns + (*more_columns ? ", " : "") + more_columns + ", pid FROM " + table;
}

// Sums the two shared-memory columns into 32 bits; -1 when neither is known.
std::int32_t shared_memory(SqliteRow& row) {
  std::int64_t st = row.integer_or(14, "static_shared", -1), dyn = row.integer_or(15, "dynamic_shared", -1);
  if (st < 0 && dyn < 0) return -1;
  st = std::max<std::int64_t>(st, 0);
  dyn = std::max<std::int64_t>(dyn, 0);
  if (st > INT32_MAX || dyn > INT32_MAX - st) return static_cast<std::int32_t>(row.out_of_range(14, "static_shared"));
  return static_cast<std::int32_t>(st + dyn);
}

using NameIds = std::unordered_map<std::int64_t, StringId>;

// The id -> name tables: `names` (kernels, ranges) and `metrics`.
NameIds read_names(SqliteDb& db, Profile& p, const std::string& table) {
  NameIds names;
  auto s = db.prepare("SELECT id, name FROM " + table);
  while (s.step()) {
    SqliteRow row(s, table.c_str());
    std::int64_t id = row.integer(0, "id");
    std::string name = row.text(1, p);
    if (row.keep(p)) names[id] = p.strings.intern(name);
  }
  return names;
}

StringId name_of(const NameIds& names, Profile& p, std::int64_t id) {
  auto it = names.find(id);
  if (it != names.end()) return it->second;
  p.stats.add(ImportStat::kUnknownNameId, "name_id " + std::to_string(id));
  return p.strings.intern("<unknown>");
}

void read_metadata(SqliteDb& db, Profile& p) {
  auto s = db.prepare("SELECT key, value FROM metadata ORDER BY key");
  while (s.step()) {
    SqliteRow row(s, "metadata");
    std::string key = row.text(0, p);
    p.metadata.emplace_back(std::move(key), row.text(1, p));
  }
}

void read_devices(SqliteDb& db, Profile& p) {
  auto s = db.prepare("SELECT id, name, sm_count, compute_major, compute_minor, memory_bytes FROM devices ORDER BY id");
  while (s.step()) {
    SqliteRow row(s, "devices");
    DeviceInfo d;
    d.id = row.int32_or(0, "id", -1);
    d.name = row.text(1, p);
    d.sm_count = row.int32_or(2, "sm_count", 0);
    d.compute_major = row.int32_or(3, "compute_major", 0);
    d.compute_minor = row.int32_or(4, "compute_minor", 0);
    d.memory_bytes = row.integer_or(5, "memory_bytes", 0);
    if (row.keep(p)) p.devices.push_back(std::move(d));
  }
}

void read_kernels(SqliteDb& db, Profile& p, const NameIds& names) {
  auto s = db.prepare(activity_query(
      "name_id, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared",
      "kernels"));
  static constexpr const char* kDims[] = {"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z"};
  while (s.step()) {
    SqliteRow row(s, "kernels");
    GpuActivity a = read_activity(row, p, GpuActivityKind::kKernel, "kernel", 16);
    std::int64_t name_id = row.integer(6, "name_id");
    for (int i = 0; i < 3; ++i) {
      a.grid[i] = row.int32_or(7 + i, kDims[i], 0);
      a.block[i] = row.int32_or(10 + i, kDims[3 + i], 0);
    }
    a.registers_per_thread = row.int32_or(13, "registers", -1);
    a.shared_memory_bytes = shared_memory(row);
    if (!row.keep(p)) continue;
    a.name = name_of(names, p, name_id);
    p.gpu.push_back(a);
  }
}

// Whole-graph records (--graphs whole): one activity per launch, its nodes unseen.
void read_graph_launches(SqliteDb& db, Profile& p) {
  if (!db.has_table("graph_launches")) return;
  auto s = db.prepare(activity_query("", "graph_launches"));
  while (s.step()) {
    SqliteRow row(s, "graph_launches");
    GpuActivity a = read_activity(row, p, GpuActivityKind::kGraph, "graph launch", 6);
    if (!row.keep(p)) continue;
    a.name = p.strings.intern(graph_launch_activity_name(a.graph_id));
    p.gpu.push_back(a);
  }
}

void read_copies(SqliteDb& db, Profile& p, StringId memset_name) {
  auto s = db.prepare(activity_query("kind, bytes", "memcpy"));
  while (s.step()) {
    SqliteRow row(s, "memcpy");
    GpuActivity a = read_activity(row, p, GpuActivityKind::kMemcpy, "memcpy", 8);
    std::string kind = row.text(6, p);
    a.bytes = row.integer_or(7, "bytes", -1);
    if (!row.keep(p)) continue;
    a.memcpy_kind = from_name<MemcpyKind>(kind).value_or(MemcpyKind::kUnknown);
    a.name = p.strings.intern(memcpy_activity_name(a.memcpy_kind));
    p.gpu.push_back(a);
  }
  auto m = db.prepare(activity_query("bytes", "memset"));
  while (m.step()) {
    SqliteRow row(m, "memset");
    GpuActivity a = read_activity(row, p, GpuActivityKind::kMemset, "memset", 7);
    a.name = memset_name;
    a.bytes = row.integer_or(6, "bytes", -1);
    if (row.keep(p)) p.gpu.push_back(a);
  }
}

void read_ranges(SqliteDb& db, Profile& p, const NameIds& names) {
  auto s = db.prepare("SELECT pid, tid, start_ns, end_ns, name_id, kind, correlation FROM ranges");
  while (s.step()) {
    SqliteRow row(s, "ranges");
    CpuRange r;
    r.pid = row.integer_or(0, "pid", -1);
    r.tid = row.integer_or(1, "tid", -1);
    r.start = row.time(2, "start_ns");
    r.end = row.time(3, "end_ns");
    std::int64_t name_id = row.integer(4, "name_id");
    std::string kind = s.text(5);
    r.correlation = row.integer_or(6, "correlation", -1);
    if (!row.keep(p)) continue;
    repair_reversed_interval(p, r.start, r.end, "range");
    r.name = name_of(names, p, name_id);
    std::optional<RangeKind> recorded = from_name<RangeKind>(kind);
    r.kind = !recorded                       ? CpuRangeKind::kOther
             : *recorded == RangeKind::kNvtx ? CpuRangeKind::kAnnotation
                                             : CpuRangeKind::kRuntime;
    p.cpu.push_back(r);
  }
}

void read_samples(SqliteDb& db, Profile& p) {
  NameIds metrics = read_names(db, p, "metrics");
  auto s = db.prepare("SELECT device, start_ns, end_ns, metric_id, value FROM samples WHERE value IS NOT NULL");
  while (s.step()) {
    SqliteRow row(s, "samples");
    CounterSample c;
    c.device = row.int32_or(0, "device", -1);
    c.start = row.time(1, "start_ns");
    c.end = row.time(2, "end_ns");
    std::int64_t metric_id = row.integer(3, "metric_id");
    if (!row.keep(p)) continue;
    repair_reversed_interval(p, c.start, c.end, "counter sample");
    auto it = metrics.find(metric_id);
    if (it == metrics.end()) {
      p.stats.add(ImportStat::kUnknownMetricId, "metric_id " + std::to_string(metric_id));
      continue;
    }
    c.metric = it->second;
    c.value = s.real(4);
    p.counters.push_back(c);
  }
}

// The recorder's losses (one stat for all; the example lists each reason, largest first) and notices.
void read_losses_and_notices(SqliteDb& db, Profile& p) {
  auto s = db.prepare("SELECT source, pid, reason, count FROM losses ORDER BY count DESC");
  std::int64_t total = 0;
  std::string reasons;
  while (s.step()) {
    SqliteRow row(s, "losses");
    std::int64_t pid = row.integer_or(1, "pid", -1);
    std::int64_t count = row.integer_or(3, "count", 0);
    if (!row.keep(p) || count <= 0) continue;
    total = saturating_add(total, count);
    if (!reasons.empty()) reasons += "; ";
    reasons += std::to_string(count) + " " + s.text(2) + " (" + s.text(0) + ", pid " + std::to_string(pid) + ")";
  }
  p.stats.add(ImportStat::kLostRecords, reasons, {}, total);
  auto n = db.prepare("SELECT source, pid, message FROM notices ORDER BY time_ns");
  while (n.step()) {
    std::string who = n.text(0);
    if (n.is_integer(1) && n.int64(1) > 0) who += " pid " + std::to_string(n.int64(1));
    std::string notice = printable_one_line(who + ": " + n.text(2), kMaxNoticeBytes);
    p.stats.add(ImportStat::kRecorderNotice, notice);
    p.notices.push_back(std::move(notice));
  }
}

void read_processes(SqliteDb& db, Profile& p) {
  bool ranked = db.has_column("processes", "rank") && db.has_column("processes", "world_size");
  auto s = db.prepare(ranked ? "SELECT pid, command, rank, world_size FROM processes ORDER BY pid"
                             : "SELECT pid, command, NULL, NULL FROM processes ORDER BY pid");
  while (s.step()) {
    SqliteRow row(s, "processes");
    ProcessInfo info;
    info.pid = row.integer(0, "pid");
    info.command = row.text(1, p);
    std::int32_t rank = row.int32_or(2, "rank", -1), world = row.int32_or(3, "world_size", -1);
    if (!row.keep(p)) continue;
    if (rank >= 0) info.rank = rank;
    if (world > 0) info.world_size = world;
    p.processes.push_back(std::move(info));
  }
  auto e = db.prepare("SELECT pid, end_reason FROM processes WHERE end_reason IS NULL OR end_reason != 'exited'");
  while (e.step()) {
    std::string reason = e.is_null(1) ? "still running when the recording ended" : e.text(1);
    p.stats.add(ImportStat::kProcessNotExited, "process " + e.text(0) + ": " + reason);
  }
}

// The tables in the order their strings are interned (the profile's string ids follow it).
void read_all(SqliteDb& db, Profile& p) {
  NameIds names = read_names(db, p, "names");
  read_metadata(db, p);
  read_devices(db, p);
  read_kernels(db, p, names);
  StringId memset_name = p.strings.intern(kMemsetActivityName);
  read_graph_launches(db, p);
  read_copies(db, p, memset_name);
  read_ranges(db, p, names);
  read_samples(db, p);
  read_losses_and_notices(db, p);
  read_processes(db, p);
}

constexpr const char* kTables[] = {"metadata", "names",   "kernels", "memcpy",  "memset",    "ranges",
                                   "metrics",  "samples", "losses",  "notices", "processes", "devices"};

// Only real tables are read: a view could run any query (even one that never ends).
void check_tables(SqliteDb& db, const std::string& path) {
  for (const char* table : kTables) {
    if (db.has_table(table)) continue;
    auto s = db.prepare("SELECT type FROM sqlite_master WHERE name = ?1");
    s.bind(1, std::string_view(table));
    std::string what = s.step() ? "'" + std::string(table) + "' is a " + s.text(0) + ", not a table"
                                : "no table '" + std::string(table) + "'";
    throw InputError(path, "not a cuprobe run file (" + what + ")");
  }
}

}  // namespace

bool is_run_file_header(std::string_view head) {
  return head.substr(0, 16) == std::string_view("SQLite format 3\0", 16);
}

bool looks_like_run_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  return is_run_file_header(std::string_view(magic, static_cast<std::size_t>(in.gcount())));
}

Profile import_run_file(const std::string& path, const std::string& shown_as) {
  const std::string& name = shown_as.empty() ? path : shown_as;
  if (!std::filesystem::exists(path)) throw InputError(name, "no such file");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    // A pipe or FIFO: read once into a file that SQLite can open.
    TempDir dir;
    std::string copy = dir.path() + "/run.cuprobe";
    auto source = open_plain_file_from(path, 0);
    copy_to_file(*source, copy, name);
    return import_run_file(copy, name);
  }
  if (!looks_like_run_file(path)) throw InputError(name, 0, "not a cuprobe run file (no SQLite header)");
  Profile p;
  p.file = name;
  p.source = "cuprobe-run";
  try {
    // A recorder killed mid-commit leaves a hot -journal; another writer may leave a -wal.
    SqliteInput input(path, name);
    if (input.companion() == "-journal") p.stats.add(ImportStat::kJournalBeside, name + "-journal");
    check_tables(input.db(), name);
    read_all(input.db(), p);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw_unreadable_sqlite(e, path, name, "run file");
  }
  std::string format, version, status;
  for (const auto& [k, v] : p.metadata) {
    if (k == "format")
      format = v;
    else if (k == "format_version")
      version = v;
    else if (k == "status")
      status = v;
  }
  if (format != kRunFileFormat) throw InputError(name, "not a cuprobe run file (metadata format '" + format + "')");
  if (version != std::to_string(kRunFileFormatVersion)) {
    throw InputError(name, "run file format version " + version + " is not supported (expected " +
                               std::to_string(kRunFileFormatVersion) + ")");
  }
  if (status != kRunStatusComplete) {
    p.complete = false;
    p.stats.add(ImportStat::kRecordingUnfinished, status == kRunStatusRecording
                                                      ? std::string("cuprobe was killed or is still running")
                                                      : "status " + status);
  }
  p.stats.events = static_cast<std::int64_t>(p.gpu.size() + p.cpu.size() + p.counters.size());
  p.sort_by_time();
  return p;
}

}  // namespace cuprobe
