#include "import/read_ahead.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace cuprobe {
namespace {

class ReadAheadSource final : public ByteSource {
 public:
  ReadAheadSource(std::unique_ptr<ByteSource> inner, std::size_t block_bytes, std::size_t blocks)
      : inner_(std::move(inner)), encoding_(inner_->encoding()) {
    for (std::size_t i = 0; i < std::max<std::size_t>(blocks, 2); ++i) free_.emplace_back(block_bytes);
    thread_ = std::thread([this] { produce(); });
  }
  ~ReadAheadSource() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  ReadAheadSource(const ReadAheadSource&) = delete;
  ReadAheadSource& operator=(const ReadAheadSource&) = delete;

  std::size_t read(char* dst, std::size_t n) override {
    std::size_t copied = 0;
    while (copied < n) {
      if (pos_ == current_len_) {
        if (copied > 0 || !next_block()) break;  // hand over what is here before waiting for more
      }
      std::size_t k = std::min(n - copied, current_len_ - pos_);
      std::memcpy(dst + copied, current_.data() + pos_, k);
      pos_ += k;
      copied += k;
    }
    return copied;
  }
  const char* encoding() const override { return encoding_; }

 private:
  struct Block {
    std::vector<char> bytes;
    std::size_t len = 0;
  };

  // Swaps the used block for the next full one; false at the end of the data.
  bool next_block() {
    std::unique_lock lock(mutex_);
    if (!current_.empty()) free_.push_back(std::move(current_));
    changed_.notify_all();
    changed_.wait(lock, [&] { return !full_.empty() || finished_; });
    if (full_.empty()) {
      current_len_ = pos_ = 0;
      if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
      return false;
    }
    current_ = std::move(full_.front().bytes);
    current_len_ = full_.front().len;
    full_.pop_front();
    pos_ = 0;
    return true;  // only blocks with bytes are queued
  }

  void produce() {
    try {
      for (;;) {
        std::vector<char> buf;
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return !free_.empty() || stop_; });
          if (stop_) return;
          buf = std::move(free_.back());
          free_.pop_back();
        }
        std::size_t len = 0;
        std::exception_ptr error;
        try {
          while (len < buf.size()) {
            std::size_t got = inner_->read(buf.data() + len, buf.size() - len);
            if (got == 0) break;
            len += got;
          }
        } catch (...) {
          error = std::current_exception();  // after the bytes read before it
        }
        bool at_end = error || len < buf.size();
        std::lock_guard lock(mutex_);
        if (len > 0) full_.push_back({std::move(buf), len});
        if (at_end) {
          error_ = error;
          finished_ = true;
        }
        changed_.notify_all();
        if (at_end) return;
      }
    } catch (...) {  // std::bad_alloc from the queue: the reader sees it
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
      finished_ = true;
      changed_.notify_all();
    }
  }

  std::unique_ptr<ByteSource> inner_;
  const char* encoding_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::vector<char>> free_;
  std::deque<Block> full_;
  std::exception_ptr error_;
  bool finished_ = false;
  bool stop_ = false;
  std::vector<char> current_;  // the block being read (empty before the first)
  std::size_t current_len_ = 0;
  std::size_t pos_ = 0;
  std::thread thread_;
};

}  // namespace

std::unique_ptr<ByteSource> read_ahead(std::unique_ptr<ByteSource> inner, std::size_t block_bytes, std::size_t blocks) {
  if (std::string_view(inner->encoding()) == "plain") return inner;
  return std::make_unique<ReadAheadSource>(std::move(inner), block_bytes, blocks);
}

}  // namespace cuprobe
