// Aligned plain-text columns for reports.
#pragma once

#include <string>
#include <vector>

#include "common/units.h"

namespace cuprobe {

class TextTable {
 public:
  // Columns whose header starts with '>' are right-aligned (the '>' is not shown).
  explicit TextTable(std::vector<std::string> headers);
  void add_row(std::vector<std::string> cells);
  std::string render(const std::string& indent = "  ") const;

 private:
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace cuprobe
