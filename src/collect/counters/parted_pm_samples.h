// Test-only model of PM sampling hardware whose samples arrive in parts, and of the
// counter data image that CUPTI decodes them into: the mechanism behind issue 29's
// `pipes` sawtooth, for the synthetic backend (CUPROBE_TEST_PM_PARTS=K) and the tests.
//
// Sample j covers [start + j*interval, start + (j+1)*interval). Its counts arrive as
// `parts` records, part p written at start + j*interval + (p+1)*interval/parts, into
// a hardware buffer. decode(now) moves the records written by `now` into an image of
// `capacity` samples in order, like cuptiPmSamplingDecodeData. A sample of the image is
// populated once one of its records is there and complete once its last record is,
// and evaluated it reads the share of its parts that the image holds: a sample whose
// first records were thrown away with an earlier image reads too low.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "collect/counters/counter_image_cursor.h"

namespace cuprobe {

class PartedPmSamples {
 public:
  // When the decode stops and reports the image full: when a record needs a new
  // sample and none is free (the records left wait in the hardware buffer), or as soon
  // as the last free sample is taken, while its other records may still be coming.
  enum class FullWhen { kNoSampleLeftForARecord, kLastSampleTaken };

  PartedPmSamples(std::int64_t start_ns, std::int64_t interval_ns, int parts, std::size_t capacity,
                  FullWhen full_when = FullWhen::kNoSampleLeftForARecord);

  // Decodes the records written by `now_ns` (and before stop()); true when it stopped
  // because the image is full.
  bool decode(std::int64_t now_ns);
  std::size_t populated() const { return image_.size(); }
  std::size_t completed() const;  // complete samples at the front of the image
  std::int64_t start_ns(std::size_t index) const;
  std::int64_t end_ns(std::size_t index) const { return start_ns(index) + interval_ns_; }
  double fraction(std::size_t index) const;  // parts in the image / parts per sample
  void reset() { image_.clear(); }           // reinitialize the image; the hardware buffer keeps its records
  void stop(std::int64_t now_ns) { stop_ns_ = now_ns; }  // no record is written after this

 private:
  struct Sample {
    std::int64_t index = 0;  // j
    int parts = 0;
    bool last_part = false;
  };
  std::int64_t record_time(std::int64_t record) const;

  std::int64_t start_ns_, interval_ns_;
  int parts_;
  std::size_t capacity_;
  FullWhen full_when_;
  std::int64_t next_record_ = 0;  // the first record not yet decoded
  std::int64_t stop_ns_ = std::numeric_limits<std::int64_t>::max();
  std::vector<Sample> image_;
};

struct PartedSample {
  std::int64_t start_ns = 0, end_ns = 0;
  double fraction = 0;  // what it reads, as a share of the truth
};

struct PartedDecode {
  std::vector<PartedSample> samples;
  std::size_t dropped_partials = 0;
  bool full = false;  // the image was full: decode again
};

// One decode the way the backends do it: decode into the image, emit the samples
// `cursor` names, reinitialize the image when it says so.
PartedDecode decode_with_cursor(PartedPmSamples& model, CounterImageCursor& cursor, std::int64_t now_ns);

}  // namespace cuprobe
