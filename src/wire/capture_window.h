// Which stretches of time a recording keeps (--delay/--duration, --capture
// signal): a list of closed intervals plus one that may still be open.
// Records arrive late (the library flushes every ~200 ms), so they are judged
// by their own timestamps, not by when they arrive.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace cuprobe {

class CaptureWindow {
 public:
  // `always` = no windows: everything is kept.
  explicit CaptureWindow(bool always) : always_(always) {}

  void open(std::int64_t t_ns);   // no-op when already open
  void close(std::int64_t t_ns);  // no-op when already closed
  bool is_open() const { return always_ || open_since_ >= 0; }
  bool contains(std::int64_t t_ns) const;
  bool ever_opened() const { return always_ || !closed_.empty() || open_since_ >= 0; }
  const std::vector<std::pair<std::int64_t, std::int64_t>>& closed_intervals() const { return closed_; }

 private:
  bool always_;
  std::int64_t open_since_ = -1;
  std::vector<std::pair<std::int64_t, std::int64_t>> closed_;
};

}  // namespace cuprobe
