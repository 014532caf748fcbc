#include "import/trace_directory.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "common/error.h"
#include "import/nsys_sqlite/report_export.h"
#include "import/trace_format.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

// Why the file is not a trace, or "" when it is one.
std::string why_not_a_trace(const fs::path& path, const std::set<std::string>& names) {
  const std::string name = path.filename().string();
  if (is_nsys_report_name(name)) {
    std::string exported = path.stem().string() + ".sqlite";
    return names.count(exported) ? "its export " + exported + " is read instead" : "";
  }
  try {
    return sniff_trace_format(path.string()).why_skipped(name);
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
    fs::file_status status = fs::status(path, ec);  // through links
    if (ec || !fs::exists(status)) {                // a link loop, a dangling link, a file gone since the listing
      std::string reason = ec ? ec.message() : "it leads nowhere";
      std::error_code link_ec;
      why = (fs::is_symlink(fs::symlink_status(path, link_ec)) ? "a link that cannot be followed: " : "unreadable: ") +
            reason;
    } else if (fs::is_directory(status)) {
      why = "a directory (not searched)";
    } else if (!fs::is_regular_file(status)) {
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
