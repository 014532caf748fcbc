// dcgm-exporter's counters file (`-f/--collectors FILE`): one field a line,
// `DCGM_FIELD, type, help`, `#` comments and blank lines. It chooses which
// DCGM-named series the page serves (type and help stay DCGM's, from
// collect/counters/counter_columns.h); cuprobe's own series are always served.
// dcgm-exporter's own default file works unchanged: fields cuprobe does not
// serve are only named (unknown_fields), and DCGM_FI_DRIVER_VERSION of type
// `label` turns on that label.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cuprobe {

struct CollectorField {
  std::string name, type, help;
  int line = 0;
};

struct CollectorsFile {
  std::string path;
  std::vector<CollectorField> fields;
};

// Throws Error (exit 2) "FILE:LINE: reason" on a line with fewer than three fields, an empty
// field name or a type that is not gauge, counter, histogram, summary or label; and on a file
// that cannot be read.
CollectorsFile parse_collectors_text(std::string_view text, const std::string& path);
CollectorsFile read_collectors_file(const std::string& path);

// The fields cuprobe does not serve (not a DCGM series of the table, nor a label it writes).
std::vector<std::string> unknown_fields(const CollectorsFile& file);

// dcgm-exporter's label of the driver version (a label of every series, not a series).
inline constexpr char kDriverVersionLabel[] = "DCGM_FI_DRIVER_VERSION";

// Which DCGM-named series and labels a page carries: all of them without a file.
class SeriesSelection {
 public:
  SeriesSelection() = default;  // everything
  explicit SeriesSelection(const CollectorsFile& file);
  bool wants(std::string_view series) const;  // cuprobe_* always
  bool driver_version_label() const { return all_ || names_.count(kDriverVersionLabel) != 0; }

 private:
  bool all_ = true;
  std::set<std::string, std::less<>> names_;
};

}  // namespace cuprobe
