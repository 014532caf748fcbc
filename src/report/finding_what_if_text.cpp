#include "report/finding_what_if_text.h"

#include <algorithm>

#include "common/units.h"

namespace cuprobe {

std::string what_if_projection(const Finding& f, std::string_view arrow, std::string_view per) {
  const WhatIf& w = f.what_if;
  double tolerance = 1e-3 * std::max(w.step_ms_now, 1e-9);
  if (w.step_ms_after) {
    double gain = w.step_ms_now > 0 ? (w.step_ms_now - *w.step_ms_after) / w.step_ms_now : 0;
    std::string out = format_duration_ms(w.step_ms_now) + " " + std::string(arrow) + " " +
                      format_duration_ms(*w.step_ms_after) + std::string(per) + " (-" +
                      format_percent(std::max(0.0, gain)) + ")";
    // Part of its saving is claimed by a finding above: the gain counts only the rest (finding_gains.h).
    if (w.step_ms_after_alone && f.alone_gain_ms() - f.gain_ms() > tolerance) {
      double alone = w.step_ms_now > 0 ? f.alone_gain_ms() / w.step_ms_now : 0;
      out += " beyond the findings above (alone -" + format_percent(alone) + ")";
    }
    return out;
  }
  if (f.alone_gain_ms() - f.gain_ms() > tolerance) {
    return f.gain_ms() > 1e-3 * w.step_ms_now
               ? "(explains " + format_duration_ms(f.gain_ms()) + " of the step beyond the findings above)"
               : "(the time it explains is claimed by the findings above)";
  }
  return {};
}

std::string what_if_line(const Finding& f, std::string_view arrow) {
  std::string projection = what_if_projection(f, arrow);
  if (projection.empty()) return f.what_if.description;
  return projection + (f.what_if.step_ms_after ? ": " : " ") + f.what_if.description;
}

}  // namespace cuprobe
