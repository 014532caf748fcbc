#include "analysis/device_peaks.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "common/error.h"

namespace cuprobe {
namespace {

constexpr std::string_view kDtypeNames[kPeakDtypeCount] = {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"};

struct Row {
  const char* match;    // all of these words (space separated) in the device name, case-insensitive
  const char* exclude;  // none of these ("" for none)
  const char* name;
  double bw, fp32, tf32, bf16, fp8, fp4, int8;  // 0: not given by the vendor / not supported
};

// Dense rates: the vendors' "with sparsity" figures halved where only those are
// printed (their footnotes). More specific rows first; sources: docs/findings.md.
constexpr Row kRows[] = {
    // NVIDIA Blackwell
    {"gb200", "", "GB200 (per GPU)", 8.0, 80, 1250, 2500, 5000, 10000, 5000},
    {"b200", "gb200", "B200 (HGX)", 8.0, 75, 1100, 2250, 4500, 9000, 4500},
    {"rtx pro 6000 blackwell", "", "RTX PRO 6000 Blackwell", 1.792, 125, 0, 0, 0, 2000, 0},
    {"rtx 5090", "", "GeForce RTX 5090", 1.792, 104.8, 0, 209.5, 419, 1676, 0},
    // NVIDIA Hopper
    {"gh200", "", "GH200 (H100 96GB)", 4.0, 67, 494.5, 989.5, 1979, 0, 1979},
    {"h200 nvl", "", "H200 NVL", 4.8, 60, 417.5, 835.5, 1670.5, 0, 1670.5},
    {"h200", "", "H200 SXM", 4.8, 67, 494.5, 989.5, 1979, 0, 1979},
    {"h100 nvl", "", "H100 NVL", 3.9, 60, 417.5, 835.5, 1670.5, 0, 1670.5},
    {"h100 pcie", "", "H100 PCIe", 2.0, 51, 378, 756, 1513, 0, 1513},
    {"h100", "pcie nvl", "H100 SXM", 3.35, 67, 494.5, 989.5, 1979, 0, 1979},
    // NVIDIA Ada, Ampere
    {"l40s", "", "L40S", 0.864, 91.6, 183, 362.05, 733, 0, 733},
    {"a100 80gb pcie", "", "A100 80GB PCIe", 1.935, 19.5, 156, 312, 0, 0, 624},
    {"a100 80gb", "", "A100 80GB SXM", 2.039, 19.5, 156, 312, 0, 0, 624},
    {"a100", "80gb", "A100 40GB", 1.555, 19.5, 156, 312, 0, 0, 624},
    // AMD Instinct
    {"mi355x", "", "Instinct MI355X", 8.0, 157.3, 0, 2516.6, 5033.2, 10066.3, 5033.2},
    {"mi350x", "", "Instinct MI350X", 8.0, 144.2, 0, 2306.9, 4613.7, 9227.5, 4613.7},
    {"mi325x", "", "Instinct MI325X", 6.0, 163.4, 653.7, 1307.4, 2614.9, 0, 2614.9},
    {"mi300x", "", "Instinct MI300X", 5.3, 163.4, 653.7, 1307.4, 2614.9, 0, 2614.9},
};

std::string lower_words(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (c == '-' || c == '_') ? ' ' : static_cast<char>(std::tolower(u));
  }
  return " " + out + " ";
}

// Every space-separated word of `words` occurs in `name` (words may be parts of a name's words: "80gb").
bool has_all(const std::string& name, std::string_view words) {
  std::size_t at = 0;
  while (at < words.size()) {
    std::size_t end = words.find(' ', at);
    if (end == std::string_view::npos) end = words.size();
    if (end > at && name.find(words.substr(at, end - at)) == std::string::npos) return false;
    at = end + 1;
  }
  return true;
}

bool has_any(const std::string& name, std::string_view words) {
  std::size_t at = 0;
  while (at < words.size()) {
    std::size_t end = words.find(' ', at);
    if (end == std::string_view::npos) end = words.size();
    if (end > at && name.find(words.substr(at, end - at)) != std::string::npos) return true;
    at = end + 1;
  }
  return false;
}

std::optional<double> given(double v) { return v > 0 ? std::optional<double>(v) : std::nullopt; }

DevicePeaks from_row(const Row& r) {
  DevicePeaks p;
  p.name = r.name;
  p.memory_tbps = given(r.bw);
  p.tflops[static_cast<int>(PeakDtype::kFp32)] = given(r.fp32);
  p.tflops[static_cast<int>(PeakDtype::kTf32)] = given(r.tf32);
  p.tflops[static_cast<int>(PeakDtype::kBf16)] = given(r.bf16);
  p.tflops[static_cast<int>(PeakDtype::kFp16)] = given(r.bf16);
  p.tflops[static_cast<int>(PeakDtype::kFp8)] = given(r.fp8);
  p.tflops[static_cast<int>(PeakDtype::kFp4)] = given(r.fp4);
  p.tflops[static_cast<int>(PeakDtype::kInt8)] = given(r.int8);
  return p;
}

}  // namespace

std::string_view peak_dtype_name(PeakDtype d) { return kDtypeNames[static_cast<int>(d)]; }

bool DevicePeaks::empty() const {
  return !memory_tbps &&
         std::none_of(std::begin(tflops), std::end(tflops), [](const auto& t) { return t.has_value(); });
}

std::optional<DevicePeaks> peaks_for_device(std::string_view device_name) {
  std::string name = lower_words(device_name);
  for (const Row& r : kRows) {
    if (has_all(name, r.match) && !has_any(name, r.exclude)) return from_row(r);
  }
  return std::nullopt;
}

const std::vector<DevicePeaks>& device_peak_table() {
  static const std::vector<DevicePeaks> table = [] {
    std::vector<DevicePeaks> t;
    for (const Row& r : kRows) t.push_back(from_row(r));
    return t;
  }();
  return table;
}

DevicePeaks parse_peak_overrides(std::string_view text) {
  DevicePeaks p;
  p.name = "--peak";
  auto bad = [&](const std::string& why) {
    throw Error("--peak " + std::string(text) + ": " + why + " (expected e.g. bw=4.8,bf16=989,fp8=1979)", kExitUsage);
  };
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(at, end - at);
    at = end + 1;
    if (item.empty()) {
      if (end == text.size()) break;
      bad("an empty entry");
    }
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) bad("'" + std::string(item) + "' has no '='");
    std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    double v = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(v) || v <= 0)
      bad("'" + std::string(value) + "' is not a positive number");
    if (key == "bw") {
      p.memory_tbps = v;
      continue;
    }
    auto it = std::find(std::begin(kDtypeNames), std::end(kDtypeNames), key);
    if (it == std::end(kDtypeNames))
      bad("unknown key '" + std::string(key) + "' (bw, fp32, tf32, bf16, fp16, fp8, fp4, int8)");
    p.tflops[it - std::begin(kDtypeNames)] = v;
  }
  if (p.empty()) bad("no values");
  return p;
}

DevicePeaks apply_peak_overrides(std::optional<DevicePeaks> base, const DevicePeaks& overrides) {
  DevicePeaks p = base ? *base : DevicePeaks{};
  if (overrides.empty()) return p;
  p.name = base ? p.name + " with --peak" : "--peak";
  if (overrides.memory_tbps) p.memory_tbps = overrides.memory_tbps;
  for (int d = 0; d < kPeakDtypeCount; ++d) {
    if (overrides.tflops[d]) p.tflops[d] = overrides.tflops[d];
  }
  return p;
}

}  // namespace cuprobe
