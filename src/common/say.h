// One line of progress, a warning or a note on stderr, as every verb writes
// them: "cuprobe VERB: ...". stdout carries results; these lines never do.
#pragma once

#include <string_view>

namespace cuprobe {

// printf-style; the line ends with one newline (added unless `format` gives it).
void say(std::string_view verb, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace cuprobe
