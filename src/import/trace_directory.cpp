#include "import/trace_directory.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "common/error.h"
#include "import/byte_source.h"
#include "import/nsys_sqlite/report_export.h"
#include "import/run_file/run_file_importer.h"
#include "import/sqlite_file_kind.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kSniffBytes = 1 << 20;

bool trace_like_name(const std::string& name) {
  for (const char* suffix : {".json", ".json.gz", ".json.xz", ".cuprobe", ".sqlite"}) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

// Why the file is not a trace, or "" when it is one.
std::string why_not_a_trace(const fs::path& path, const std::set<std::string>& names) {
  const std::string name = path.filename().string();
  if (is_nsys_report_name(name)) {
    std::string exported = path.stem().string() + ".sqlite";
    return names.count(exported) ? "its export " + exported + " is read instead" : "";
  }
  try {
    std::string raw_head;
    auto source = open_byte_source(path.string(), &raw_head);
    if (is_run_file_header(raw_head)) {
      return sqlite_file_kind(path.string()) == SqliteFileKind::kOther
                 ? "an SQLite database, neither a cuprobe run file nor an Nsight Systems export"
                 : "";
    }
    std::string head;
    char buffer[1 << 16];
    while (head.size() < kSniffBytes) {
      std::size_t n = source->read(buffer, std::min(sizeof buffer, kSniffBytes - head.size()));
      if (n == 0) break;
      head.append(buffer, n);
    }
    std::size_t first = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    first = head.find_first_not_of(" \t\r\n", first);
    if (first == std::string::npos) return "empty";
    if (head[first] == '[') return "";
    if (head[first] == '{') {
      return head.find("\"traceEvents\"") != std::string::npos ? "" : "JSON without \"traceEvents\" in its first MiB";
    }
    // A trace's name on bytes that are no trace: loading it reports what is wrong.
    return trace_like_name(name) ? "" : "neither JSON nor SQLite";
  } catch (const Error& e) {
    return trace_like_name(name) ? "" : std::string("unreadable: ") + e.what();
  }
}

}  // namespace

TraceDirectory list_trace_directory(const std::string& dir) {
  std::vector<fs::path> entries;
  std::set<std::string> names;
  try {
    for (const auto& e : fs::directory_iterator(dir)) {
      entries.push_back(e.path());
      names.insert(e.path().filename().string());
    }
  } catch (const fs::filesystem_error& e) {
    throw InputError(dir, "cannot list the directory: " + e.code().message());
  }
  std::sort(entries.begin(), entries.end());
  TraceDirectory out;
  for (const auto& path : entries) {
    std::error_code ec;
    std::string why;
    if (fs::is_directory(path, ec)) {
      why = "a directory (not searched)";
    } else if (!fs::is_regular_file(path, ec)) {
      why = "not a regular file";
    } else if (fs::file_size(path, ec) == 0 && !ec) {
      why = "empty";
    } else {
      why = why_not_a_trace(path, names);
    }
    if (why.empty()) {
      out.traces.push_back(path.string());
    } else {
      out.skipped.push_back(path.filename().string() + " (" + why + ")");
    }
  }
  return out;
}

}  // namespace cuprobe
