#include "common/utf8.h"

namespace cuprobe {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is invalid.
std::size_t valid_sequence_length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c == 0xE0)
    n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC)
    n = 3;
  else if (c == 0xED)
    n = 3, hi = 0x9F;
  else if (c >= 0xEE && c <= 0xEF)
    n = 3;
  else if (c == 0xF0)
    n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3)
    n = 4;
  else if (c == 0xF4)
    n = 4, hi = 0x8F;
  else
    return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = valid_sequence_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string repair_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = valid_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string printable_one_line(std::string_view s, std::size_t max_bytes) {
  bool cut = s.size() > max_bytes;
  std::string repaired = repair_utf8(cut ? s.substr(0, max_bytes) : s);
  std::string out;
  out.reserve(repaired.size());
  for (char ch : repaired) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out.push_back(ch);
    }
  }
  if (cut) out += "...";
  return out;
}

std::string printable_ascii(std::string_view s, std::size_t max_bytes) {
  std::string out;
  for (char c : s.substr(0, max_bytes)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

}  // namespace cuprobe
