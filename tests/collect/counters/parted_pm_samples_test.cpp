// Issue 29's `pipes` sawtooth, reproduced on the model of samples that arrive in parts:
// resetting the counter image after every decode (the old policy) cuts the sample in
// flight, and what reaches the next image reads only the parts written after the cut;
// the cursor's policy (reset only when full) reads every sample whole.
#include "collect/counters/parted_pm_samples.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace cuprobe {
namespace {

constexpr std::int64_t kMs = 1000000;

struct Decoded {
  std::vector<PartedSample> samples;
  std::size_t dropped = 0;
  std::vector<std::int64_t> decodes;  // when each decode ran
};

// Decode times: every `period`, half a millisecond off the parts' times, up to `until`.
std::vector<std::int64_t> decode_times(std::int64_t period, std::int64_t until) {
  std::vector<std::int64_t> t;
  for (std::int64_t at = period + kMs / 2; at <= until; at += period) t.push_back(at);
  return t;
}

// The old policy: decode, evaluate the completed samples, reset the image, every time.
Decoded run_reset_every_decode(std::int64_t interval, std::int64_t period, int parts, std::int64_t until) {
  PartedPmSamples model(0, interval, parts, 1024);
  Decoded run;
  run.decodes = decode_times(period, until);
  for (std::int64_t at : run.decodes) {
    model.decode(at);
    for (std::size_t i = 0; i < model.completed(); ++i) {
      run.samples.push_back({model.start_ns(i), model.end_ns(i), model.fraction(i)});
    }
    model.reset();
  }
  return run;
}

// The backends' policy (decode_with_cursor), decoding again while the image is full.
Decoded run_with_cursor(std::int64_t interval, std::int64_t period, int parts, std::int64_t until,
                        std::size_t capacity = 1024,
                        PartedPmSamples::FullWhen full_when = PartedPmSamples::FullWhen::kNoSampleLeftForARecord) {
  PartedPmSamples model(0, interval, parts, capacity, full_when);
  CounterImageCursor cursor;
  Decoded run;
  run.decodes = decode_times(period, until);
  for (std::int64_t at : run.decodes) {
    for (int round = 0; round < 64; ++round) {
      PartedDecode d = decode_with_cursor(model, cursor, at);
      run.samples.insert(run.samples.end(), d.samples.begin(), d.samples.end());
      run.dropped += d.dropped_partials;
      if (!d.full) break;
    }
  }
  return run;
}

// What the old policy makes sample [start, start + interval) read: the parts written
// after the last decode inside it (all of them when no decode fell inside).
double cut_fraction(std::int64_t start, std::int64_t interval, int parts, const std::vector<std::int64_t>& decodes) {
  std::int64_t last_cut = -1;
  for (std::int64_t at : decodes) {
    if (at > start && at < start + interval) last_cut = at;
  }
  if (last_cut < 0) return 1.0;
  std::int64_t written_before = (last_cut - start) / (interval / parts);
  return static_cast<double>(parts - written_before) / parts;
}

double mean(const std::vector<PartedSample>& s) {
  double sum = 0;
  for (const auto& x : s) sum += x.fraction;
  return s.empty() ? 0 : sum / static_cast<double>(s.size());
}

// At 100 ms with decodes every 130 ms (100 ms period plus the decode's own time): the
// sawtooth of the H200, 1, 0.7, 0.4, 0.1, 1, 0.8, 0.5, 0.2, ... of the truth.
TEST(PartedPmSamples, ResettingAfterEveryDecodeReadsADecayingSawtooth) {
  const std::int64_t interval = 100 * kMs;
  const int parts = 100;
  Decoded run = run_reset_every_decode(interval, 130 * kMs, parts, 10000 * kMs);
  ASSERT_GE(run.samples.size(), 90u);
  for (const auto& s : run.samples) {
    ASSERT_DOUBLE_EQ(s.fraction, cut_fraction(s.start_ns, interval, parts, run.decodes)) << s.start_ns;
  }
  std::vector<double> first;
  for (std::size_t i = 0; i < 8; ++i) first.push_back(run.samples[i].fraction);
  EXPECT_EQ(first, (std::vector<double>{1.0, 0.7, 0.4, 0.1, 1.0, 0.8, 0.5, 0.2}));
  // Decaying runs that jump back to the truth: the mean is about half of it.
  int jumps = 0;
  for (std::size_t i = 1; i < run.samples.size(); ++i) jumps += run.samples[i].fraction > run.samples[i - 1].fraction;
  EXPECT_GE(jumps, 20);
  EXPECT_LT(mean(run.samples), 0.7);
}

// At 1 s, decoded every 130 ms: only the part after the last cut survives (H200: 0-9%).
TEST(PartedPmSamples, ResettingAfterEveryDecodeAtOneSecondKeepsOnlyTheLastSlice) {
  const std::int64_t interval = 1000 * kMs;
  Decoded run = run_reset_every_decode(interval, 130 * kMs, 100, 20000 * kMs);
  ASSERT_GE(run.samples.size(), 18u);
  for (const auto& s : run.samples) {
    EXPECT_DOUBLE_EQ(s.fraction, cut_fraction(s.start_ns, interval, 100, run.decodes));
    EXPECT_LE(s.fraction, 0.14);
  }
}

// More decodes, more cuts: decoding every 37 ms (a shorter period plus the decode's own
// time) instead of 130 ms, only the slice after the last of two or three cuts survives.
TEST(PartedPmSamples, ResettingMoreOftenReadsLess) {
  const std::int64_t interval = 100 * kMs;
  Decoded often = run_reset_every_decode(interval, 37 * kMs, 100, 10000 * kMs);
  Decoded seldom = run_reset_every_decode(interval, 130 * kMs, 100, 10000 * kMs);
  EXPECT_LT(mean(often.samples), 0.5 * mean(seldom.samples));
  for (const auto& s : often.samples) EXPECT_LE(s.fraction, 0.37);
}

// Every sample whole and in order, none missing up to the last decode, at 10 ms, 100 ms
// and 1 s intervals, decoded every 50-130 ms and more often than the interval.
TEST(PartedPmSamples, TheCursorReadsEverySampleWhole) {
  struct Case {
    std::int64_t interval, period;
    int parts;
  };
  const Case cases[] = {{10 * kMs, 57 * kMs, 10},   {10 * kMs, 70 * kMs, 10},    {10 * kMs, 3 * kMs, 10},
                        {100 * kMs, 50 * kMs, 100}, {100 * kMs, 103 * kMs, 100}, {100 * kMs, 130 * kMs, 100},
                        {100 * kMs, 20 * kMs, 100}, {1000 * kMs, 100 * kMs, 50}, {1000 * kMs, 130 * kMs, 50}};
  for (const Case& c : cases) {
    SCOPED_TRACE("interval " + std::to_string(c.interval / kMs) + " ms, decode every " +
                 std::to_string(c.period / kMs) + " ms");
    const std::int64_t until = 200 * c.interval;
    Decoded run = run_with_cursor(c.interval, c.period, c.parts, until);
    std::int64_t last = run.decodes.back();
    EXPECT_EQ(run.samples.size(), static_cast<std::size_t>(last / c.interval));
    EXPECT_EQ(run.dropped, 0u);
    std::int64_t expected_start = 0;
    for (const auto& s : run.samples) {
      ASSERT_EQ(s.fraction, 1.0) << s.start_ns;
      ASSERT_EQ(s.start_ns, expected_start);
      ASSERT_EQ(s.end_ns, s.start_ns + c.interval);
      expected_start = s.end_ns;
    }
  }
}

// An image that fills while a sample is still arriving: the rest of that sample lands
// in the fresh image; the cursor drops it and counts it, and never emits a partial.
TEST(PartedPmSamples, AFullImageCostsTheSampleInFlightNeverAPartialValue) {
  const std::int64_t interval = 10 * kMs;
  Decoded run = run_with_cursor(interval, 57 * kMs, 10, 400 * interval, 8, PartedPmSamples::FullWhen::kLastSampleTaken);
  std::int64_t last = run.decodes.back();
  EXPECT_GE(run.dropped, 30u);
  std::size_t gaps = 0;
  std::int64_t expected_start = 0;
  for (const auto& s : run.samples) {
    ASSERT_EQ(s.fraction, 1.0) << s.start_ns;
    if (s.start_ns != expected_start) {
      ASSERT_EQ(s.start_ns, expected_start + interval);  // exactly the one dropped
      ++gaps;
    }
    expected_start = s.end_ns;
  }
  EXPECT_EQ(gaps, run.dropped);
  EXPECT_EQ(run.samples.size() + run.dropped, static_cast<std::size_t>(last / interval));
}

// An image that fills only when a new sample finds no room holds no sample in flight:
// nothing is dropped.
TEST(PartedPmSamples, AFullImageWithNothingInFlightLosesNothing) {
  const std::int64_t interval = 10 * kMs;
  Decoded run = run_with_cursor(interval, 57 * kMs, 10, 400 * interval, 8);
  EXPECT_EQ(run.dropped, 0u);
  EXPECT_EQ(run.samples.size(), static_cast<std::size_t>(run.decodes.back() / interval));
  for (const auto& s : run.samples) ASSERT_EQ(s.fraction, 1.0);
}

TEST(PartedPmSamples, NothingIsWrittenAfterAStop) {
  PartedPmSamples model(0, 10 * kMs, 4, 16);
  model.stop(25 * kMs);
  EXPECT_FALSE(model.decode(1000 * kMs));
  EXPECT_EQ(model.populated(), 3u);  // 0-10, 10-20 and the first parts of 20-30
  EXPECT_EQ(model.completed(), 2u);
  EXPECT_DOUBLE_EQ(model.fraction(2), 0.5);
}

}  // namespace
}  // namespace cuprobe
