#include "inject/activity_buffer_pool.h"

#include <cstdlib>
#include <cstring>

namespace cuprobe::inject {

ActivityBufferPool::~ActivityBufferPool() {
  for (std::uint8_t* b : free_) std::free(b);
}

std::uint8_t* ActivityBufferPool::take() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::uint8_t* b = free_.back();
      free_.pop_back();
      return b;
    }
    ++allocated_;
  }
  // calloc's memory is 8-byte aligned, as CUPTI asks, and zero.
  return static_cast<std::uint8_t*>(std::calloc(1, bytes_));
}

void ActivityBufferPool::give_back(std::uint8_t* buffer) {
  if (!buffer) return;
  std::memset(buffer, 0, bytes_);
  std::unique_lock lock(mutex_);
  if (free_.size() < keep_) {
    free_.push_back(buffer);
    return;
  }
  lock.unlock();
  std::free(buffer);
}

void ActivityBufferPool::fill(std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    auto* b = static_cast<std::uint8_t*>(std::malloc(bytes_));
    if (!b) return;
    std::memset(b, 0, bytes_);  // touched here, on the worker: resident before CUPTI asks
    std::lock_guard lock(mutex_);
    ++allocated_;
    if (free_.size() >= keep_) {
      std::free(b);
      return;
    }
    free_.push_back(b);
  }
}

std::size_t ActivityBufferPool::pooled() const {
  std::lock_guard lock(mutex_);
  return free_.size();
}

}  // namespace cuprobe::inject
