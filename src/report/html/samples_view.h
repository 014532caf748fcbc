// The report's view of `cuprobe sample` output (CSV or JSONL, report/sample_format.h):
// one series per GPU and metric, seconds from the first sample, averaged into
// at most kSamplesMaxPoints time bins. Text in, JSON out: the CLI reads the file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cuprobe {

inline constexpr std::size_t kSamplesMaxPoints = 1500;

// Throws InputError (file, line, reason) on a malformed line.
nlohmann::ordered_json samples_view(const std::string& file, const std::string& text);

}  // namespace cuprobe
