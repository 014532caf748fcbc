// The data of the HTML report: one JSON document ("cuprobe.report/1") that the
// page's script draws from. Built from what analyze and diff computed, the
// profiles (timelines, counters) and the optional bench and sample views;
// bulky parts are trimmed here, and the page says what was trimmed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/diff.h"
#include "model/profile.h"

namespace cuprobe {

inline constexpr std::size_t kReportMaxKernels = 300;         // rows per rank in the kernel table
inline constexpr std::size_t kReportMaxCounterPoints = 1500;  // points per counter line
inline constexpr std::size_t kReportMaxStepBands = 3000;      // step bands behind the counter lines
inline constexpr std::size_t kReportMaxCollectiveCalls = 50;  // cross-rank calls: those the others waited on longest

struct ReportBaseline {
  DiffReport diff;
  std::vector<std::string> a_files, b_files;
  std::string rank_note;  // set when the two sides' rank counts differ
};

struct ReportInputs {
  std::vector<std::string> inputs;
  const std::vector<Profile>* profiles = nullptr;
  const AnalyzeReport* report = nullptr;  // nullptr (and no profiles): a page of a bench result alone
  std::optional<ReportBaseline> baseline;
  nlohmann::ordered_json bench;    // bench_view(), or null
  nlohmann::ordered_json samples;  // samples_view(), or null
  std::string version, generated_utc;
};

nlohmann::ordered_json report_data(const ReportInputs& in);

}  // namespace cuprobe
