#include "report/sample_live_view.h"

#include <cstdio>

#include "report/sample_format.h"

namespace cuprobe {

std::string sample_live_view(const std::vector<std::string>& names, const std::map<int, CounterRow>& latest,
                             std::int64_t rows, std::int64_t lost) {
  std::string out = "\x1b[H\x1b[2J";
  char line[256];
  std::snprintf(line, sizeof line, "cuprobe sample: %lld samples, %lld lost   (Ctrl-C ends)\n",
                static_cast<long long>(rows), static_cast<long long>(lost));
  out += line;
  for (const auto& [gpu, row] : latest) {
    out += "GPU " + std::to_string(gpu) + "\n";
    for (std::size_t i = 0; i < names.size() && i < row.values.size(); ++i) {
      std::string v = format_sample_value(row.values[i]);
      std::snprintf(line, sizeof line, "  %-28s %14s\n", names[i].c_str(), v.empty() ? "-" : v.c_str());
      out += line;
    }
  }
  return out;
}

}  // namespace cuprobe
