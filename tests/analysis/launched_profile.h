// Profiles of launch calls and the activities they launched, for the tests of the
// peers' tables (idle time, launch delays, annotations, queue length). Times in ns.
#pragma once

#include <algorithm>
#include <string>

#include "model/profile.h"

namespace cuprobe::test {

struct LaunchedProfile {
  Profile p;
  std::int64_t next_correlation = 1;

  LaunchedProfile() { p.source = "kineto"; }

  // A launch call [call_start, call_end) on thread 1 and its kernel [gpu_start, gpu_end) on the stream.
  void launch(const std::string& kernel, TimeNs call_start, TimeNs call_end, TimeNs gpu_start, TimeNs gpu_end,
              std::int64_t stream = 7, const char* call = "cudaLaunchKernel") {
    std::int64_t corr = next_correlation++;
    p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                             .name = p.strings.intern(call),
                             .start = call_start,
                             .end = call_end,
                             .pid = 1,
                             .tid = 1,
                             .correlation = corr});
    activity(kernel, gpu_start, gpu_end, stream, corr);
  }

  // An activity without a launch call.
  void activity(const std::string& kernel, TimeNs start, TimeNs end, std::int64_t stream = 7,
                std::int64_t correlation = -1) {
    GpuActivity a;
    a.name = p.strings.intern(kernel);
    a.start = start;
    a.end = end;
    a.device = 0;
    a.stream = stream;
    a.correlation = correlation;
    p.gpu.push_back(a);
  }

  void annotation(const std::string& name, TimeNs start, TimeNs end, std::int64_t tid = 1) {
    p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kAnnotation,
                             .name = p.strings.intern(name),
                             .start = start,
                             .end = end,
                             .pid = 1,
                             .tid = tid});
  }

  Profile& sorted() {
    p.sort_by_time();
    return p;
  }
};

}  // namespace cuprobe::test
