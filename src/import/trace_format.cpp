#include "import/trace_format.h"

#include "common/error.h"
#include "import/byte_source.h"
#include "import/nsys_sqlite/report_export.h"
#include "import/run_file/run_file_importer.h"
#include "import/sqlite_input.h"

namespace cuprobe {
namespace {

std::string without_prefix(std::string reason, const std::string& path) {
  const std::string prefix = path + ": ";
  if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
  return reason;
}

// An object whose first key is rocprofv3's (rocprofiler-sdk's JSON writer puts it first).
bool rocprofv3_first_key(std::string_view object) {
  std::size_t key = object.find_first_not_of(" \t\r\n", 1);
  return key != std::string_view::npos && object.substr(key).starts_with("\"rocprofiler-sdk-tool\"");
}

}  // namespace

bool trace_like_name(std::string_view name) {
  for (const char* suffix : {".json", ".json.gz", ".json.xz", ".cuprobe", ".cuprobe.gz", ".cuprobe.xz", ".sqlite"}) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

TraceFormat sniff_head(std::string_view head) {
  if (is_run_file_header(head)) return TraceFormat::kSqliteStream;
  std::size_t first = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  first = head.find_first_not_of(" \t\r\n", first);
  if (first == std::string_view::npos) return TraceFormat::kEmpty;
  if (head[first] == '[') return TraceFormat::kKinetoJson;
  if (head[first] == '{') {
    if (rocprofv3_first_key(head.substr(first))) return TraceFormat::kRocprofv3Json;
    return head.find("\"traceEvents\"") != std::string_view::npos ? TraceFormat::kKinetoJson : TraceFormat::kOtherJson;
  }
  return TraceFormat::kUnknown;
}

TraceSniff sniff_sqlite(const std::string& path) {
  TraceSniff s;
  try {
    SqliteInput input(path, path);
    SqliteDb& db = input.db();
    auto has = [&](const char* name) {
      auto q = db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?1");
      q.bind(1, std::string_view(name));
      return q.step();
    };
    s.format = has("metadata")    ? TraceFormat::kRunFile
               : has("StringIds") ? TraceFormat::kNsysExport
                                  : TraceFormat::kOtherSqlite;
  } catch (const Error& e) {
    s.format = TraceFormat::kDamagedSqlite;
    s.detail = without_prefix(without_prefix(e.what(), path), "cannot open");
  }
  return s;
}

TraceSniff sniff_trace_format(const std::string& path, std::size_t head_bytes) {
  if (is_nsys_report_name(path)) return {TraceFormat::kNsysReport};
  std::string raw;
  auto source = open_byte_source(path, &raw);
  if (is_run_file_header(raw)) return sniff_sqlite(path);
  TraceSniff s;
  s.encoding = source->encoding();
  s.format = sniff_head(read_up_to(*source, head_bytes));
  return s;
}

bool TraceSniff::kept_in_directory(std::string_view name) const { return why_skipped(name).empty(); }

std::string TraceSniff::why_skipped(std::string_view name) const {
  switch (format) {
    case TraceFormat::kEmpty:
      return "empty";
    case TraceFormat::kOtherJson:
      return "JSON without \"traceEvents\" in its first MiB";
    case TraceFormat::kOtherSqlite:
      return "an SQLite database, neither a cuprobe run file nor an Nsight Systems export";
    case TraceFormat::kUnknown:
      // A trace's name on bytes that are no trace: loading it reports what is wrong.
      return trace_like_name(name) ? "" : "neither JSON nor SQLite";
    default:
      return "";
  }
}

}  // namespace cuprobe
