// Parsing of durations ("500ms", "10s", "2m", "1h", "250us") and sizes
// ("64MiB", "1GB", "4096"). Throws cuprobe::Error (exit code 2) on bad input.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

std::chrono::nanoseconds parse_duration(std::string_view text);
std::uint64_t parse_size(std::string_view text);
std::string format_duration_ms(double ms);             // "1.56 ms", "86.0 ms", "2.31 s"
std::string format_percent(double fraction);           // "91%", "3.4%", "0.2%"
std::string format_fixed(double value, int decimals);  // "1.56"
std::string format_mib(std::uint64_t bytes);           // "1024 MiB"
std::string format_bytes(double bytes);                // "857 MB", "1.2 GB", "64 KB", "512 B" (powers of 1000)
// A counter value by its metric's name: rates ("..._per_s") as "810.4 GB/s", sizes ("..._bytes") as
// "2048 MiB", others "93.1"; "-" when not finite, and for the clock_event_reasons bitmask.
std::string format_metric_value(double v, std::string_view metric);

}  // namespace cuprobe
