#include "common/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "common/error.h"

namespace cuprobe {
namespace {

// Splits "12.5ms" into 12.5 and "ms"; throws when there is no leading number.
std::pair<double, std::string_view> split_number(std::string_view text, const char* what) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) throw Error(std::string("invalid ") + what + " '" + std::string(text) + "'", kExitUsage);
  std::string number(text.substr(0, i));
  char* end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(value)) {
    throw Error(std::string("invalid ") + what + " '" + std::string(text) + "'", kExitUsage);
  }
  return {value, text.substr(i)};
}

}  // namespace

std::chrono::nanoseconds parse_duration(std::string_view text) {
  auto [value, unit] = split_number(text, "duration");
  double scale = 0;
  if (unit == "ns")
    scale = 1;
  else if (unit == "us")
    scale = 1e3;
  else if (unit == "ms")
    scale = 1e6;
  else if (unit == "s" || unit.empty())
    scale = 1e9;
  else if (unit == "m" || unit == "min")
    scale = 60e9;
  else if (unit == "h")
    scale = 3600e9;
  else
    throw Error("invalid duration '" + std::string(text) + "' (use e.g. 500ms, 10s, 2m)", kExitUsage);
  double ns = value * scale;
  if (ns > 9e18) throw Error("duration '" + std::string(text) + "' is too long", kExitUsage);
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(ns)));
}

std::uint64_t parse_size(std::string_view text) {
  auto [value, unit] = split_number(text, "size");
  double scale = 0;
  if (unit.empty() || unit == "B")
    scale = 1;
  else if (unit == "KiB" || unit == "K")
    scale = 1024.0;
  else if (unit == "MiB" || unit == "M")
    scale = 1024.0 * 1024;
  else if (unit == "GiB" || unit == "G")
    scale = 1024.0 * 1024 * 1024;
  else if (unit == "KB")
    scale = 1e3;
  else if (unit == "MB")
    scale = 1e6;
  else if (unit == "GB")
    scale = 1e9;
  else
    throw Error("invalid size '" + std::string(text) + "' (use e.g. 64MiB, 1GB)", kExitUsage);
  double bytes = value * scale;
  if (bytes > 1.8e19) throw Error("size '" + std::string(text) + "' is too large", kExitUsage);
  return static_cast<std::uint64_t>(std::llround(bytes));
}

std::string format_duration_ms(double ms) {
  char buf[64];
  if (ms >= 10000)
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  else if (ms >= 100)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else if (ms >= 10)
    std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  else if (ms >= 0.1)
    std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.1f us", ms * 1000);
  return buf;
}

std::string format_percent(double fraction) {
  char buf[32];
  double pct = fraction * 100;
  std::snprintf(buf, sizeof buf, pct >= 9.95 || pct == 0 ? "%.0f%%" : "%.1f%%", pct);
  return buf;
}

std::string format_fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string format_metric_value(double v, std::string_view metric) {
  if (!std::isfinite(v)) return "-";
  char buf[32];
  bool rate = metric.find("per_s") != std::string_view::npos;
  if (rate) {
    const char* units[] = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};
    int u = 0;
    double x = v;
    while (std::fabs(x) >= 1000 && u < 4) {
      x /= 1000;
      ++u;
    }
    std::snprintf(buf, sizeof buf, "%.1f %s", x, units[u]);
  } else if (metric.ends_with("_bytes")) {
    std::snprintf(buf, sizeof buf, "%.0f MiB", v / (1024.0 * 1024.0));
  } else if (metric == "clock_event_reasons") {
    return "-";  // a bitmask: its mean or percentile means nothing (the sample lines carry it)
  } else {
    std::snprintf(buf, sizeof buf, "%.1f", v);
  }
  return buf;
}

std::string format_mib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1000;
    ++u;
  }
  return format_fixed(bytes, bytes >= 100 || u == 0 ? 0 : 1) + " " + units[u];
}

}  // namespace cuprobe
