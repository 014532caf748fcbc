#include "report/finding_sources_text.h"

#include "common/units.h"
#include "model/python_frame.h"

namespace cuprobe {

std::string finding_sources_text(const Finding& f) {
  std::string out;
  for (const SourceLine& s : f.sources) {
    if (!out.empty()) out += ", ";
    out += std::string(python_file_base(s.file)) + ":" + std::to_string(s.line) + " in " + s.function + " (" +
           format_percent(s.share) + ")";
  }
  return out;
}

}  // namespace cuprobe
