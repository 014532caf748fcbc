#include "import/kineto_json/timestamp.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace cuprobe {
namespace {

// Removes a leading '-' and says whether there was one.
bool take_sign(std::string_view& text) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  return negative;
}

}  // namespace

std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text) {
  const std::string_view original = text;
  bool negative = take_sign(text);
  std::size_t i = 0;
  std::int64_t whole = 0;
  std::size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (whole > (INT64_MAX / 1000 - 9) / 10) return std::nullopt;  // beyond ~292 years in ns
    whole = whole * 10 + (text[i] - '0');
  }
  if (digits == 0) return std::nullopt;
  std::int64_t fraction_ns = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    std::int64_t scale = 100;
    std::size_t fraction_digits = 0;
    bool round_up = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++fraction_digits) {
      if (scale >= 1) {
        fraction_ns += (text[i] - '0') * scale;
        scale /= 10;
      } else if (fraction_digits == 3) {
        round_up = text[i] >= '5';
      }
    }
    if (fraction_digits == 0) return std::nullopt;
    if (round_up) ++fraction_ns;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    // Rare scientific notation: fall back to double, which is exact enough there.
    std::string copy(original);
    char* end = nullptr;
    double us = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(us) || std::fabs(us) > 9.2e15) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(us * 1000.0));
  }
  if (i != text.size()) return std::nullopt;
  std::int64_t ns = whole * 1000 + fraction_ns;
  return negative ? -ns : ns;
}

std::optional<std::int64_t> integer_text(std::string_view text) {
  // Most ids and sizes: up to 18 plain digits, which cannot overflow.
  if (!text.empty() && text.size() <= 18) {
    std::int64_t value = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) value = value * 10 + (text[i] - '0');
    if (i == text.size()) return value;
  }
  bool negative = take_sign(text);
  std::size_t i = 0;
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {  // "7.0": accept an integral value written with a fraction
      for (std::size_t j = i + 1; j < text.size(); ++j) {
        if (text[j] != '0') return std::nullopt;
      }
      break;
    }
    if (c < '0' || c > '9') return std::nullopt;
    // Exact up to INT64_MAX, without a division per digit.
    if (value >= INT64_MAX / 10 && (value > INT64_MAX / 10 || c - '0' > INT64_MAX % 10)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return negative ? -value : value;
}

}  // namespace cuprobe
