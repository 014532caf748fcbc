// A finding's what-if in words, the same in analyze's text and on the report page:
// the projection first ("3.54 ms -> 0.13 ms (-96%)", with what findings above it
// already claim), then the description analysis wrote.
#pragma once

#include <string>
#include <string_view>

#include "analysis/analysis_result.h"

namespace cuprobe {

// "3.54 ms -> 0.13 ms (-96%)", "... beyond the findings above (alone -98%)", "(explains 1.2 ms of the step beyond
// the findings above)", "(the time it explains is claimed by the findings above)", or "" when the finding has
// no projection and nothing above claims its time. `arrow` joins now and after ("->" in text, "→" on the page);
// `per` follows the after value (" per step" in the page's headline).
std::string what_if_projection(const Finding& f, std::string_view arrow = "->", std::string_view per = "");

// The projection and the description as one line: "3.54 ms -> 0.13 ms (-96%): cast only ...".
std::string what_if_line(const Finding& f, std::string_view arrow = "->");

}  // namespace cuprobe
