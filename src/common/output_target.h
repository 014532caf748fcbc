// What a verb does with an output before and besides writing it whole
// (common/atomic_file): checking it can be written before any work is done
// (bench checks its files before the first request, so a run's measurements
// are never lost to a typo), and appending to it without reading it (SGLang's
// --output-file, vLLM's --append-result: a FIFO, /dev/stdout or a device is
// never read, a big file is never loaded).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cuprobe {

// Throws the Error writing PATH would (AtomicFile's text), writing nothing: a
// regular target's directory takes a temporary file, removed at once; a
// descriptor path must be open for writing; an existing device or FIFO is not
// opened (a FIFO's reader would see its end); a socket is refused. With
// `append`, an existing regular file must itself be writable.
void check_writable(const std::string& path, bool append = false);

// The last byte of PATH when it is a non-empty regular file, else "" (only that
// byte is read).
std::string last_byte_of(const std::string& path);

// Adds `content` at the end of PATH (created 0666 when missing; O_APPEND, the
// file never read); an in-place target (atomic_file.h) is streamed into. An
// output that is one of `inputs` is refused. Throws Error naming PATH and errno.
void append_to_file(const std::string& path, std::string_view content, const std::vector<std::string>& inputs = {});

}  // namespace cuprobe
