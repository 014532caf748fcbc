// Which samples of a PM-sampling counter data image to evaluate after each decode,
// and when to reinitialize the image. Pure (no CUDA headers): the CUPTI backend and
// the synthetic one both follow it.
//
// A sample can reach the image in several records written over its interval (with
// the per-TPC counters of the `pipes` preset, many), so after a decode the newest
// sample is often populated but not yet complete. Its records must stay in the image
// until the rest arrive: reinitializing the image then throws the decoded part away,
// and the rest lands in the fresh image as a sample that looks complete but holds only
// part of its counts (the `pipes` sawtooth of issue 29). So the image is decoded into
// across calls and reinitialized only when CUPTI says it is full; if a sample was in
// flight then, the fresh image's first sample is its tail, which is dropped and counted.
#pragma once

#include <cstddef>

namespace cuprobe {

class CounterImageCursor {
 public:
  struct Step {
    std::size_t begin = 0, end = 0;    // evaluate and emit the image's samples [begin, end)
    std::size_t dropped_partials = 0;  // samples skipped as the tail of one cut by a reset
    bool reset = false;                // reinitialize the image after evaluating
  };

  // After a decode into the image: its populated and completed sample counts
  // (cuptiPmSamplingGetCounterDataInfo) and whether the decode stopped because the
  // image is full (CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL).
  Step after_decode(std::size_t populated, std::size_t completed, bool full);

  // The image starts over: reinitialized for a new stream (sampling started or
  // restarted), or found refilled from its first sample by the decode.
  void restart();

  // Samples of the image already emitted or skipped.
  std::size_t evaluated() const { return evaluated_; }

 private:
  std::size_t evaluated_ = 0;   // samples of this image already emitted or skipped
  bool first_is_tail_ = false;  // this image's sample 0 is the rest of a sample cut by a reset
};

}  // namespace cuprobe
