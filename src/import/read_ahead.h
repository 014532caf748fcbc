// Decompression beside parsing: a compressed source read on its own thread,
// a few blocks ahead of the reader (a bounded queue), so that inflating and
// parsing use two cores instead of taking turns on one. Errors the inner
// source throws reach the reader at the point in the data where they arose.
#pragma once

#include <cstddef>
#include <memory>

#include "import/byte_source.h"

namespace cuprobe {

// `inner` itself when it is plain (reading a file is not worth a thread); otherwise a
// source that reads it on another thread, at most `blocks` blocks of `block_bytes` ahead.
std::unique_ptr<ByteSource> read_ahead(std::unique_ptr<ByteSource> inner, std::size_t block_bytes = 1 << 20,
                                       std::size_t blocks = 4);

}  // namespace cuprobe
