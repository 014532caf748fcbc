// Building RFC 4180 CSV text for `analyze --csv`: rows of fields, CRLF line ends,
// numbers at full precision.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cuprobe {

// One CSV field: quoted when it holds a comma, quote, or line break (RFC 4180).
std::string csv_field(std::string_view s);

inline std::string csv_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

struct CsvText {
  std::string text;
  explicit CsvText(const std::vector<std::string>& header) { row(header); }
  void row(const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) text += (i ? "," : "") + csv_field(cells[i]);
    text += "\r\n";
  }
};

}  // namespace cuprobe
