// Kineto timestamps and durations are microseconds, integral or with a
// fraction ("5176567546613.683"). They are converted to integer nanoseconds
// exactly, without a round trip through double.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cuprobe {

std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text);
std::optional<std::int64_t> integer_text(std::string_view text);

}  // namespace cuprobe
