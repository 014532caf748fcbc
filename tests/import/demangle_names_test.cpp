// Every input's kernel names demangled in one place (import/demangle_names, called by load_profiles).
#include "import/demangle_names.h"

#include <gtest/gtest.h>

#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

TEST(DemangleKernelNames, MangledNamesBecomeReadableOnce) {
  Profile p;
  for (const char* name :
       {"_ZN5aiter19topksoftmax_4x256x8E.kd", "ampere_bf16_gemm", "_ZN5aiter19topksoftmax_4x256x8E.kd", "_Zbroken"}) {
    GpuActivity a;
    a.name = p.strings.intern(name);
    p.gpu.push_back(a);
  }
  EXPECT_EQ(demangle_kernel_names(p), 1u);
  EXPECT_EQ(p.name_of(p.gpu[0].name), "aiter::topksoftmax_4x256x8");
  EXPECT_EQ(p.gpu[0].name, p.gpu[2].name);
  EXPECT_EQ(p.name_of(p.gpu[1].name), "ampere_bf16_gemm");
  EXPECT_EQ(p.name_of(p.gpu[3].name), "_Zbroken");
}

// A Kineto trace from ROCm with a mangled aiter kernel: analyze shows the readable name.
TEST(DemangleKernelNames, LoadedTracesCarryReadableNames) {
  std::string trace = test::write_temp_file("rocm_mangled.json",
                                            R"({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "_ZN5aiter19topksoftmax_4x256x8E.kd", "pid": 1, "tid": 2, "ts": 10, "dur": 5,
   "args": {"device": 0, "stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 3, "ts": 8, "dur": 1,
   "args": {"correlation": 1}}
]})");
  std::vector<Profile> ps = load_profiles({trace});
  ASSERT_EQ(ps.size(), 1u);
  ASSERT_EQ(ps[0].gpu.size(), 1u);
  EXPECT_EQ(ps[0].name_of(ps[0].gpu[0].name), "aiter::topksoftmax_4x256x8");
  auto r = test::run_cuprobe({"analyze", trace});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("aiter::topksoftmax_4x256x8"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("_ZN5aiter"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cuprobe
