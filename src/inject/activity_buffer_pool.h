// The activity buffers the library hands to CUPTI, recycled rather than freed.
// A buffer comes back from the worker zeroed (all of it: CUPTI may have begun a
// record past the valid size), so CUPTI
// (told so through CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER) need not zero
// it on the thread that asked for it, which can be the target's launching
// thread; and its pages stay mapped and touched, so no page faults land there
// either, and no munmap sends TLB shootdowns to the target's cores.
// take() runs in CUPTI's request callback, give_back() on the worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace cuprobe::inject {

class ActivityBufferPool {
 public:
  // Buffers of `bytes` each; at most `keep` wait in the pool, more are freed.
  ActivityBufferPool(std::size_t bytes, std::size_t keep) : bytes_(bytes), keep_(keep) {}
  ~ActivityBufferPool();
  ActivityBufferPool(const ActivityBufferPool&) = delete;
  ActivityBufferPool& operator=(const ActivityBufferPool&) = delete;

  std::size_t buffer_bytes() const { return bytes_; }
  // A zeroed buffer: from the pool, else a new one (zeroed by calloc); null when out of memory.
  std::uint8_t* take();
  // A buffer CUPTI is done with (the worker, after encoding it).
  void give_back(std::uint8_t* buffer);
  // Allocates and touches `n` buffers ahead of need (the worker, at its start).
  void fill(std::size_t n);
  std::size_t pooled() const;
  std::uint64_t allocated() const { return allocated_; }

 private:
  std::size_t bytes_;
  std::size_t keep_;
  mutable std::mutex mutex_;
  std::vector<std::uint8_t*> free_;
  std::uint64_t allocated_ = 0;  // guarded by mutex_
};

}  // namespace cuprobe::inject
