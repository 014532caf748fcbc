// The report's bench view: the summary of a `cuprobe bench` result
// (cuprobe.bench/1) and, from its per-request lines (--save-requests), the
// TTFT/ITL/TPOT/E2E values, output tokens per second over time and the request
// timeline (send, first token, end of each request), the steady window marked. Texts in, JSON out: the CLI reads the
// files.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace cuprobe {

inline constexpr std::size_t kBenchMaxItl = 20000;   // ITL values the page keeps (every n-th beyond)
inline constexpr std::size_t kBenchMaxSpans = 2000;  // requests drawn in the request timeline (every n-th beyond)

// Throws InputError (file, reason) when result is no cuprobe.bench/1 document or
// a request line is not JSON.
nlohmann::ordered_json bench_view(const std::string& result_file, const std::string& result_text,
                                  const std::string& requests_file, const std::optional<std::string>& requests_text);

}  // namespace cuprobe
