#include "report/wait_report.h"

#include <cstdio>

namespace cuprobe {

std::string wait_ready_line(const std::string& server, const ReadinessResult& result) {
  std::string models;
  for (const auto& m : result.last.models) models += (models.empty() ? "" : ", ") + m;
  char waited[64];
  std::snprintf(waited, sizeof waited, "%.1f", result.waited_s);
  return "ready: " + server + " after " + waited + " s" + (models.empty() ? "" : "; models: ") + models + "\n";
}

}  // namespace cuprobe
