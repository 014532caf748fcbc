#include "report/html/report_findings.h"

#include "report/analyze_json.h"
#include "report/finding_sources_text.h"
#include "report/finding_what_if_text.h"
#include "report/html/finding_evidence.h"
#include "report/html/step_timeline.h"
#include "report/kernel_display_names.h"

namespace cuprobe {

nlohmann::ordered_json report_findings(const AnalyzeReport& report) {
  using json = nlohmann::ordered_json;
  json out = json::array();
  for (const auto& f : report.findings) {
    const RankAnalysis* a = finding_rank(report, f);
    json fj = finding_json(f);
    json numbers = json::object();
    for (const auto& [k, v] : f.numbers) numbers[k] = round4(v);
    fj["numbers"] = std::move(numbers);
    json kernels = json::array();
    std::vector<std::string> shown = finding_kernel_display_names(report, f);
    for (std::size_t k = 0; k < f.kernels.size(); ++k) kernels.push_back({{"name", f.kernels[k]}, {"short", shown[k]}});
    fj["kernels_shown"] = std::move(kernels);
    fj["evidence"] = evidence_words(f, a && !a->steps.steps.empty());
    fj["what_if_projection"] = what_if_projection(f, "\u2192");
    if (!f.sources.empty()) fj["sources_shown"] = finding_sources_text(f);
    out.push_back(std::move(fj));
  }
  return out;
}

}  // namespace cuprobe
