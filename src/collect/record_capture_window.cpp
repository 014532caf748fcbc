#include "collect/record_capture_window.h"

namespace cuprobe {

void CaptureWindow::open(std::int64_t t_ns) {
  if (always_ || open_since_ >= 0) return;
  open_since_ = t_ns;
}

void CaptureWindow::close(std::int64_t t_ns) {
  if (always_ || open_since_ < 0) return;
  closed_.emplace_back(open_since_, t_ns);
  open_since_ = -1;
}

bool CaptureWindow::contains(std::int64_t t_ns) const {
  if (always_) return true;
  if (open_since_ >= 0 && t_ns >= open_since_) return true;
  for (const auto& [a, b] : closed_) {
    if (t_ns >= a && t_ns < b) return true;
  }
  return false;
}

}  // namespace cuprobe
