// The thresholds of the pattern findings (findings_patterns.h), documented in docs/findings.md "Patterns"; the
// others are in thresholds.h.
#pragma once

namespace cuprobe::thresholds {

// A host-to-device copy from pageable memory where the trace does not say (run files): a copy of at least 1 MiB
// below this rate. Pinned copies reach about 50 GB/s on the H200's PCIe Gen5 x16 link, pageable ones a fraction.
inline constexpr double kPageableCopyGBps = 20.0;
// pageable_host_copy's what-if: the rate a pinned host-to-device copy reaches (PCIe Gen5 x16).
inline constexpr double kPinnedCopyGBps = 50.0;
// sync_inside_step: at least this many read-backs per step, each with the GPU idle after it inside the step.
inline constexpr double kReadBacksPerStep = 2.0;
// host_work_in_step: idle gaps inside a step at least this long (longer than a launch explains) are host work.
inline constexpr double kHostWorkGapUs = 100.0;
// A pattern finding is reported when its what-if saves at least this share of the step.
inline constexpr double kPatternMinStepShare = 0.01;
// cache_grown_by_cat: a cat call moving at least this many bytes (at copy bandwidth) is a buffer copied whole.
inline constexpr double kCatWholeCopyBytes = 16.0 * 1024 * 1024;

}  // namespace cuprobe::thresholds
