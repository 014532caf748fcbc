#include "collect/counters/counter_image_cursor.h"

#include <algorithm>

namespace cuprobe {

CounterImageCursor::Step CounterImageCursor::after_decode(std::size_t populated, std::size_t completed, bool full) {
  completed = std::min(completed, populated);
  Step step;
  step.begin = evaluated_;
  if (first_is_tail_ && evaluated_ == 0 && completed > 0) {
    step.begin = 1;
    step.dropped_partials = 1;
    first_is_tail_ = false;
  }
  step.end = std::max(step.begin, completed);
  evaluated_ = step.end;
  if (full) {
    step.reset = true;
    // A sample still in flight (the tail pending from an earlier reset included)
    // continues in the fresh image as its first sample.
    first_is_tail_ = populated > completed;
    evaluated_ = 0;
  }
  return step;
}

void CounterImageCursor::restart() {
  evaluated_ = 0;
  first_is_tail_ = false;
}

}  // namespace cuprobe
