#include "support/read_csv.h"

#include <gtest/gtest.h>

#include "support/run_cuprobe.h"

namespace cuprobe::test {

std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  const std::string text = slurp(path);
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
    } else if (c == '\r') {
    } else if (c == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  rows.pop_back();  // after the last line break
  std::vector<std::map<std::string, std::string>> out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    EXPECT_EQ(rows[r].size(), rows[0].size()) << path << " row " << r;
    std::map<std::string, std::string> m;
    for (std::size_t c = 0; c < rows[r].size() && c < rows[0].size(); ++c) m[rows[0][c]] = rows[r][c];
    out.push_back(m);
  }
  return out;
}

}  // namespace cuprobe::test
