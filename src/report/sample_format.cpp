#include "report/sample_format.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace cuprobe {

SampleFormat parse_sample_format(std::string_view text) {
  if (text == "csv") return SampleFormat::kCsv;
  if (text == "jsonl") return SampleFormat::kJsonl;
  throw Error("unknown format '" + std::string(text) + "' (use csv or jsonl)", kExitUsage);
}

std::string format_sample_value(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "";
  return std::string(buf, end);
}

SampleLineWriter::SampleLineWriter(SampleFormat format, std::vector<std::string> metric_names)
    : format_(format), names_(std::move(metric_names)) {}

std::string SampleLineWriter::header() const {
  if (format_ != SampleFormat::kCsv) return "";
  std::string h = "gpu,start_ns,end_ns";
  for (const auto& n : names_) {
    h += ',';
    h += n;
  }
  h += '\n';
  return h;
}

std::string SampleLineWriter::line(const CounterRow& row) const {
  std::string out;
  if (format_ == SampleFormat::kCsv) {
    out += std::to_string(row.gpu);
    out += ',';
    out += std::to_string(row.start_ns);
    out += ',';
    out += std::to_string(row.end_ns);
    for (std::size_t i = 0; i < names_.size(); ++i) {
      out += ',';
      if (i < row.values.size()) out += format_sample_value(row.values[i]);
    }
    out += '\n';
    return out;
  }
  // Built by hand to keep the column order (gpu, start_ns, end_ns, metrics in order).
  out += "{\"gpu\":";
  out += std::to_string(row.gpu);
  out += ",\"start_ns\":";
  out += std::to_string(row.start_ns);
  out += ",\"end_ns\":";
  out += std::to_string(row.end_ns);
  for (std::size_t i = 0; i < names_.size(); ++i) {
    std::string v = i < row.values.size() ? format_sample_value(row.values[i]) : std::string();
    out += ',';
    out += nlohmann::json(names_[i]).dump();
    out += ':';
    out += v.empty() ? std::string("null") : v;
  }
  out += "}\n";
  return out;
}

}  // namespace cuprobe
