#include "exporter/collectors_file.h"

#include <cstdint>

#include "collect/counters/counter_columns.h"
#include "common/bounded_read.h"
#include "common/error.h"
#include "common/exit_codes.h"

namespace cuprobe {
namespace {

std::string trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool known_type(const std::string& t) {
  return t == "gauge" || t == "counter" || t == "histogram" || t == "summary" || t == "label";
}

[[noreturn]] void malformed(const std::string& path, int line, const std::string& reason) {
  throw Error(path + ":" + std::to_string(line) + ": " + reason, kExitUsage);
}

bool served_series(std::string_view name) {
  for (const CounterColumn& c : kCounterColumns) {
    if (c.series == name) return true;
  }
  return false;
}

}  // namespace

CollectorsFile parse_collectors_text(std::string_view text, const std::string& path) {
  CollectorsFile file;
  file.path = path;
  int number = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string line = trim(text.substr(at, end - at));
    at = end + 1;
    ++number;
    if (line.empty() || line[0] == '#') continue;
    auto c1 = line.find(',');
    auto c2 = c1 == std::string::npos ? std::string::npos : line.find(',', c1 + 1);
    if (c2 == std::string::npos) malformed(path, number, "expected 'FIELD, type, help' (two commas)");
    CollectorField f{trim(line.substr(0, c1)), trim(line.substr(c1 + 1, c2 - c1 - 1)), trim(line.substr(c2 + 1)),
                     number};
    if (f.name.empty()) malformed(path, number, "empty field name");
    if (!known_type(f.type)) {
      malformed(path, number, "type '" + f.type + "' is not gauge, counter, histogram, summary or label");
    }
    file.fields.push_back(std::move(f));
  }
  return file;
}

// dcgm-exporter's files are a few KiB: a megabyte is no counters file (a device or an endless FIFO stops here).
constexpr std::uint64_t kMaxCollectorsFileBytes = 1 << 20;

CollectorsFile read_collectors_file(const std::string& path) {
  std::string text;
  try {
    text = read_bounded_file(path, kMaxCollectorsFileBytes);  // a device or a FIFO without end: one line
  } catch (const Error& e) {
    throw Error(std::string("collectors file ") + e.what(), kExitUsage);
  }
  return parse_collectors_text(text, path);
}

std::vector<std::string> unknown_fields(const CollectorsFile& file) {
  std::vector<std::string> unknown;
  for (const auto& f : file.fields) {
    bool label = f.type == "label";
    if ((label && f.name == kDriverVersionLabel) || (!label && served_series(f.name))) continue;
    unknown.push_back(f.name);
  }
  return unknown;
}

SeriesSelection::SeriesSelection(const CollectorsFile& file) : all_(false) {
  for (const auto& f : file.fields) names_.insert(f.name);
}

bool SeriesSelection::wants(std::string_view series) const {
  if (all_ || !series.starts_with("DCGM_")) return true;
  return names_.count(series) != 0;
}

}  // namespace cuprobe
