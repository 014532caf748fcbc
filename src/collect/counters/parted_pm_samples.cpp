#include "collect/counters/parted_pm_samples.h"

#include <algorithm>

namespace cuprobe {

PartedPmSamples::PartedPmSamples(std::int64_t start_ns, std::int64_t interval_ns, int parts, std::size_t capacity,
                                 FullWhen full_when)
    : start_ns_(start_ns),
      interval_ns_(std::max<std::int64_t>(1, interval_ns)),
      parts_(std::max(1, parts)),
      capacity_(std::max<std::size_t>(1, capacity)),
      full_when_(full_when) {}

std::int64_t PartedPmSamples::record_time(std::int64_t record) const {
  std::int64_t sample = record / parts_, part = record % parts_;
  return start_ns_ + sample * interval_ns_ + (part + 1) * interval_ns_ / parts_;
}

bool PartedPmSamples::decode(std::int64_t now_ns) {
  std::int64_t until = std::min(now_ns, stop_ns_);
  while (record_time(next_record_) <= until) {
    std::int64_t sample = next_record_ / parts_;
    bool last = next_record_ % parts_ == parts_ - 1;
    if (!image_.empty() && image_.back().index == sample) {
      ++image_.back().parts;
      image_.back().last_part = last;
    } else {
      if (image_.size() >= capacity_) return true;
      image_.push_back({sample, 1, last});
      if (full_when_ == FullWhen::kLastSampleTaken && image_.size() == capacity_) {
        ++next_record_;
        return true;
      }
    }
    ++next_record_;
  }
  return false;
}

std::size_t PartedPmSamples::completed() const {
  std::size_t n = 0;
  while (n < image_.size() && image_[n].last_part) ++n;
  return n;
}

std::int64_t PartedPmSamples::start_ns(std::size_t index) const {
  return start_ns_ + image_.at(index).index * interval_ns_;
}

double PartedPmSamples::fraction(std::size_t index) const {
  return static_cast<double>(image_.at(index).parts) / parts_;
}

PartedDecode decode_with_cursor(PartedPmSamples& model, CounterImageCursor& cursor, std::int64_t now_ns) {
  PartedDecode out;
  out.full = model.decode(now_ns);
  CounterImageCursor::Step step = cursor.after_decode(model.populated(), model.completed(), out.full);
  out.dropped_partials = step.dropped_partials;
  for (std::size_t i = step.begin; i < step.end; ++i) {
    out.samples.push_back({model.start_ns(i), model.end_ns(i), model.fraction(i)});
  }
  if (step.reset) model.reset();
  return out;
}

}  // namespace cuprobe
