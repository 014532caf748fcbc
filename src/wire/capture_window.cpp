#include "wire/capture_window.h"

#include <algorithm>
#include <iterator>

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
  // Intervals are appended in time order: the only candidate is the last one starting at or before t.
  auto after =
      std::upper_bound(closed_.begin(), closed_.end(), t_ns,
                       [](std::int64_t t, const std::pair<std::int64_t, std::int64_t>& w) { return t < w.first; });
  return after != closed_.begin() && t_ns < std::prev(after)->second;
}

}  // namespace cuprobe
