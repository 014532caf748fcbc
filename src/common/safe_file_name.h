// A file name made from text a server chose (a model id): every byte that is
// not printable ASCII, and '/', '\', becomes '_'; a leading '.' or '-' too (no
// hidden file, no option); at most `max_bytes`, cut before the extension
// (".json" stays). Issue 39: a 400-character model id, or CR/LF/ESC/NUL in it,
// no longer decide whether a run's results can be written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuprobe {

std::string safe_file_name(std::string_view name, std::size_t max_bytes = 200);

}  // namespace cuprobe
