#include "report/text_table.h"

#include <algorithm>

namespace cuprobe {
namespace {

// Display width: count UTF-8 lead bytes only.
std::size_t width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}

}  // namespace

TextTable::TextTable(std::vector<std::string> headers) {
  for (auto& h : headers) {
    bool right = !h.empty() && h[0] == '>';
    right_.push_back(right);
    headers_.push_back(right ? h.substr(1) : h);
  }
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render(const std::string& indent) const {
  std::vector<std::size_t> widths(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    widths[c] = width(headers_[c]);
    for (const auto& r : rows_) widths[c] = std::max(widths[c], width(r[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out = indent;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      std::string pad(widths[c] - width(cells[c]), ' ');
      bool last = c + 1 == cells.size();
      out += right_[c] ? pad + cells[c] : cells[c] + (last ? "" : pad);
      if (!last) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(headers_);
  for (const auto& r : rows_) out += line(r);
  return out;
}

}  // namespace cuprobe
