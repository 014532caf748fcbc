// A whole text file read with a bound (issue 39): a file over `max_bytes` ends
// with one line naming it and the limit before it is held, a device (/dev/zero)
// or a directory is refused, a pipe or FIFO is read as it comes, up to the
// bound. Throws InputError naming the file and the cause.
#pragma once

#include <cstdint>
#include <string>

namespace cuprobe {

std::string read_bounded_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace cuprobe
