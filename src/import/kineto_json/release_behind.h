// Gives back to the system the pages of a large array already read through, while
// the array itself lives on: the second part of a trace read in two parts is copied
// into the first part's arrays, and without this both copies are resident at once,
// import's peak (16 MiB on a 346 MiB trace). For arrays of trivially copyable
// elements that are never read again behind the point given; the allocator still
// owns and later frees the memory (its freed pages read back as zeros).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuprobe {

class ReleaseBehind {
 public:
  ReleaseBehind(const void* begin, std::size_t bytes);
  // Everything before `p` is read: the whole pages there go back (madvise DONTNEED), a few MiB at a time.
  void read_up_to(const void* p);

 private:
  std::uintptr_t released_;  // whole pages from the first page boundary in the array up to here went back
  std::uintptr_t end_;
};

}  // namespace cuprobe
