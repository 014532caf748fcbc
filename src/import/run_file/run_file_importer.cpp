#include "import/run_file/run_file_importer.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "common/error.h"
#include "store/run_file_schema.h"
#include "store/sqlite_db.h"

namespace cuprobe {
namespace {


std::int64_t or_default(const SqliteStatement& s, int column, std::int64_t fallback) {
  return s.is_null(column) ? fallback : s.int64(column);
}

std::int32_t int32_or(const SqliteStatement& s, int column, std::int32_t fallback) {
  return static_cast<std::int32_t>(or_default(s, column, fallback));
}

void check_interval(Profile& p, TimeNs start, TimeNs& end, const char* what) {
  if (end < start) {
    p.stats.warn(std::string(what) + " ending before it starts (end set to start)");
    end = start;
  }
}

// Every GPU activity query starts with these columns.
constexpr const char* kActivityColumns = "device, stream, start_ns, end_ns, correlation, graph_id";

// Reads kActivityColumns (columns 0-5) of the current row.
GpuActivity read_activity(const SqliteStatement& s, Profile& p, GpuActivityKind kind, const char* what) {
  GpuActivity a;
  a.kind = kind;
  a.device = int32_or(s, 0, -1);
  a.stream = or_default(s, 1, -1);
  a.start = s.int64(2);
  a.end = s.int64(3);
  check_interval(p, a.start, a.end, what);
  a.correlation = or_default(s, 4, -1);
  a.graph_id = or_default(s, 5, -1);
  return a;
}

std::string activity_query(const char* more_columns, const char* table) {
  return std::string("SELECT ") + kActivityColumns + (*more_columns ? ", " : "") + more_columns + " FROM " + table;
}

void read_all(SqliteDb& db, Profile& p) {
  std::unordered_map<std::int64_t, StringId> names;
  {
    auto s = db.prepare("SELECT id, name FROM names");
    while (s.step()) names[s.int64(0)] = p.strings.intern(s.text(1));
  }
  auto name_of = [&](std::int64_t id) {
    auto it = names.find(id);
    if (it != names.end()) return it->second;
    p.stats.warn("name id missing from the names table");
    return p.strings.intern("<unknown>");
  };
  {
    auto s = db.prepare("SELECT key, value FROM metadata ORDER BY key");
    while (s.step()) p.metadata.emplace_back(s.text(0), s.text(1));
  }
  {
    auto s = db.prepare("SELECT id, name, sm_count, compute_major, compute_minor, memory_bytes FROM devices ORDER BY id");
    while (s.step()) {
      DeviceInfo d;
      d.id = static_cast<std::int32_t>(s.int64(0));
      d.name = s.text(1);
      d.sm_count = int32_or(s, 2, 0);
      d.compute_major = int32_or(s, 3, 0);
      d.compute_minor = int32_or(s, 4, 0);
      d.memory_bytes = or_default(s, 5, 0);
      p.devices.push_back(std::move(d));
    }
  }
  {
    auto s = db.prepare(activity_query(
        "name_id, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared",
        "kernels"));
    while (s.step()) {
      GpuActivity a = read_activity(s, p, GpuActivityKind::kKernel, "kernel");
      a.name = name_of(s.int64(6));
      for (int i = 0; i < 3; ++i) {
        a.grid[i] = int32_or(s, 7 + i, 0);
        a.block[i] = int32_or(s, 10 + i, 0);
      }
      a.registers_per_thread = int32_or(s, 13, -1);
      std::int64_t st = or_default(s, 14, -1), dyn = or_default(s, 15, -1);
      a.shared_memory_bytes = st < 0 && dyn < 0 ? -1 : static_cast<std::int32_t>(std::max<std::int64_t>(st, 0) + std::max<std::int64_t>(dyn, 0));
      p.gpu.push_back(a);
    }
  }
  StringId memset_name = p.strings.intern("Memset");
  if (db.has_table("graph_launches")) {
    // Whole-graph records (--graphs whole): one activity per launch, its nodes unseen.
    auto s = db.prepare(activity_query("", "graph_launches"));
    while (s.step()) {
      GpuActivity a = read_activity(s, p, GpuActivityKind::kGraph, "graph launch");
      a.name = p.strings.intern("CUDA graph " + std::to_string(a.graph_id) + " (whole launch)");
      p.gpu.push_back(a);
    }
  }
  {
    auto s = db.prepare(activity_query("kind, bytes", "memcpy"));
    while (s.step()) {
      GpuActivity a = read_activity(s, p, GpuActivityKind::kMemcpy, "memcpy");
      std::string kind = s.text(6);
      a.memcpy_kind = from_name<MemcpyKind>(kind).value_or(MemcpyKind::kUnknown);
      a.name = p.strings.intern("Memcpy " + kind);
      a.bytes = or_default(s, 7, -1);
      p.gpu.push_back(a);
    }
  }
  {
    auto s = db.prepare(activity_query("bytes", "memset"));
    while (s.step()) {
      GpuActivity a = read_activity(s, p, GpuActivityKind::kMemset, "memset");
      a.name = memset_name;
      a.bytes = or_default(s, 6, -1);
      p.gpu.push_back(a);
    }
  }
  {
    auto s = db.prepare("SELECT pid, tid, start_ns, end_ns, name_id, kind, correlation FROM ranges");
    while (s.step()) {
      CpuRange r;
      r.pid = or_default(s, 0, -1);
      r.tid = or_default(s, 1, -1);
      r.start = s.int64(2);
      r.end = s.int64(3);
      check_interval(p, r.start, r.end, "range");
      r.name = name_of(s.int64(4));
      std::string kind = s.text(5);
      std::optional<RangeKind> recorded = from_name<RangeKind>(kind);
      r.kind = !recorded                          ? CpuRangeKind::kOther
               : *recorded == RangeKind::kNvtx ? CpuRangeKind::kAnnotation
                                               : CpuRangeKind::kRuntime;
      r.correlation = or_default(s, 6, -1);
      p.cpu.push_back(r);
    }
  }
  {
    std::unordered_map<std::int64_t, StringId> metrics;
    auto m = db.prepare("SELECT id, name FROM metrics");
    while (m.step()) metrics[m.int64(0)] = p.strings.intern(m.text(1));
    auto s = db.prepare("SELECT device, start_ns, end_ns, metric_id, value FROM samples WHERE value IS NOT NULL");
    while (s.step()) {
      CounterSample c;
      c.device = int32_or(s, 0, -1);
      c.start = s.int64(1);
      c.end = s.int64(2);
      check_interval(p, c.start, c.end, "counter sample");
      auto it = metrics.find(s.int64(3));
      if (it == metrics.end()) {
        p.stats.warn("counter sample with an unknown metric id");
        continue;
      }
      c.metric = it->second;
      c.value = s.real(4);
      p.counters.push_back(c);
    }
  }
  {
    auto s = db.prepare("SELECT source, pid, reason, count FROM losses WHERE count > 0");
    while (s.step()) {
      p.stats.warn("lost records: " + s.text(2) + " (" + s.text(0) + ", pid " + std::to_string(s.int64(1)) + ")",
                   s.int64(3));
    }
  }
  {
    auto s = db.prepare("SELECT source, pid, message FROM notices ORDER BY time_ns");
    while (s.step()) {
      std::string who = s.text(0);
      if (!s.is_null(1) && s.int64(1) > 0) who += " pid " + std::to_string(s.int64(1));
      p.stats.warn(who + ": " + s.text(2));
    }
  }
  {
    auto s = db.prepare("SELECT pid, end_reason FROM processes WHERE end_reason IS NULL OR end_reason != 'exited'");
    while (s.step()) {
      std::string reason = s.is_null(1) ? "still running when the recording ended" : s.text(1);
      p.stats.warn("process " + std::to_string(s.int64(0)) + ": " + reason);
    }
  }
}

}  // namespace

bool looks_like_run_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  return in.gcount() == sizeof magic && std::memcmp(magic, "SQLite format 3\0", 16) == 0;
}

Profile import_run_file(const std::string& path) {
  if (!std::filesystem::exists(path)) throw InputError(path, "no such file");
  if (!looks_like_run_file(path)) throw InputError(path, 0, "not a cuprobe run file (no SQLite header)");
  Profile p;
  p.file = path;
  p.source = "cuprobe-run";
  try {
    // A recorder killed mid-commit leaves a hot journal that only a writable
    // connection can roll back; nothing else is ever written.
    std::error_code ec;
    bool hot_journal = std::filesystem::exists(path + "-journal", ec);
    SqliteDb db(path, hot_journal ? SqliteDb::Mode::kReadWrite : SqliteDb::Mode::kReadOnly);
    for (const char* table : {"metadata", "names", "kernels", "memcpy", "memset", "ranges", "metrics",
                              "samples", "losses", "notices", "processes", "devices"}) {
      if (!db.has_table(table)) throw InputError(path, std::string("not a cuprobe run file (no table '") + table + "')");
    }
    read_all(db, p);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    std::string reason = e.what();
    if (reason.rfind(path + ": ", 0) == 0) reason = reason.substr(path.size() + 2);
    throw InputError(path, "unreadable run file: " + reason);
  }
  std::string format, version, status;
  for (const auto& [k, v] : p.metadata) {
    if (k == "format") format = v;
    else if (k == "format_version") version = v;
    else if (k == "status") status = v;
  }
  if (format != kRunFileFormat) throw InputError(path, "not a cuprobe run file (metadata format '" + format + "')");
  if (version != std::to_string(kRunFileFormatVersion)) {
    throw InputError(path, "run file format version " + version + " is not supported (expected " +
                               std::to_string(kRunFileFormatVersion) + ")");
  }
  if (status != kRunStatusComplete) {
    p.complete = false;
    p.stats.warn(status == kRunStatusRecording
                     ? std::string("recording did not finish (cuprobe was killed or is still running)")
                     : "recording " + status);
  }
  p.stats.events = static_cast<std::int64_t>(p.gpu.size() + p.cpu.size() + p.counters.size());
  p.sort_by_time();
  return p;
}

}  // namespace cuprobe
