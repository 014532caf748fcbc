// A guess at where one trace event ends and the next begins, from some offset
// of an uncompressed trace: '}', then ',' and '{' with only whitespace between.
// Used to parse the second half of a big file in parallel; the guess is
// checked later (the first half must arrive exactly there), never trusted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cuprobe {

// Offset of the '{' that starts the next event after `from`, if one is found
// within a few MiB.
std::optional<std::uint64_t> find_element_boundary(const std::string& path, std::uint64_t from);

}  // namespace cuprobe
