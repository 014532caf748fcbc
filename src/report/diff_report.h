// `cuprobe diff` output: text for people, JSON ("cuprobe.diff/1") for programs.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/diff.h"

namespace cuprobe {

std::string diff_text(const DiffReport& d, const std::string& a_label, const std::string& b_label, std::size_t top,
                      const std::optional<DiffGate>& gate = std::nullopt);
nlohmann::ordered_json diff_json(const DiffReport& d, const std::vector<std::string>& a_files,
                                 const std::vector<std::string>& b_files, std::size_t top,
                                 const std::optional<DiffGate>& gate = std::nullopt);
// JSON "hta_overlap": [{"rank", "a", "b"}], each side {"hta_window", "hta_overlap"} with analyze --json's keys, or
// null where that side ran no NCCL kernel (also the report page's baseline).
nlohmann::ordered_json diff_hta_json(const DiffReport& d);
// `diff --csv DIR`: changes.csv (every row of "what moved", the JSON's keys) and hta_overlap.csv (a row per paired
// rank and side that ran NCCL kernels: analyze's hta_overlap.csv columns after rank, side, window and the last step
// left out (empty: none)).
std::vector<std::pair<std::string, std::string>> diff_csv(const DiffReport& d);
// "1.86× slower", "1.2× faster", "same": B against A, the larger time over the smaller (never
// "0.54x slower"); empty when either is not positive.
std::string slower_or_faster(double a_ms, double b_ms);
// "gate: GPU time per step 1.03 ms -> 1.70 ms, +65.0% (limit +5%): FAILED"
std::string gate_line(const DiffGate& g);

}  // namespace cuprobe
