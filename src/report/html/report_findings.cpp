#include "report/html/report_findings.h"

#include <map>

#include "report/analyze_json.h"
#include "report/finding_what_if_text.h"
#include "report/html/finding_evidence.h"
#include "report/html/step_timeline.h"
#include "report/kernel_display_name.h"
#include "report/kernel_display_names.h"

namespace cuprobe {

const RankAnalysis* finding_rank(const AnalyzeReport& report, const Finding& f) {
  if (report.ranks.size() == 1) return &report.ranks.front();
  for (const auto& a : report.ranks) {
    if (a.rank && f.rank && *a.rank == *f.rank) return &a;
  }
  return nullptr;
}

nlohmann::ordered_json report_findings(const AnalyzeReport& report) {
  using json = nlohmann::ordered_json;
  // Each rank's row names, by full name: what its kernel table shows.
  std::map<const RankAnalysis*, std::map<std::string, std::string>> row_names;
  for (const auto& a : report.ranks) {
    std::vector<std::string> display = rank_kernel_display_names(a);
    auto& names = row_names[&a];
    for (std::size_t i = 0; i < a.kernels.size(); ++i) names.emplace(a.kernels[i].name, display[i]);
  }
  json out = json::array();
  for (const auto& f : report.findings) {
    const RankAnalysis* a = finding_rank(report, f);
    json fj = finding_json(f);
    json numbers = json::object();
    for (const auto& [k, v] : f.numbers) numbers[k] = round4(v);
    fj["numbers"] = std::move(numbers);
    json kernels = json::array();
    for (const auto& k : f.kernels) {
      std::string shown;
      if (a) {
        auto it = row_names[a].find(k);
        if (it != row_names[a].end()) shown = it->second;
      }
      if (shown.empty()) shown = kernel_display_name(k, 72);
      kernels.push_back({{"name", k}, {"short", shown}});
    }
    fj["kernels_shown"] = std::move(kernels);
    fj["evidence"] = evidence_words(f, a && !a->steps.steps.empty());
    fj["what_if_projection"] = what_if_projection(f, "\u2192");
    out.push_back(std::move(fj));
  }
  return out;
}

}  // namespace cuprobe
