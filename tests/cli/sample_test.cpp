// `cuprobe sample` end to end without a GPU: argument handling, metric listing
// through the CUPTI host API, and the refusal when no GPU/driver is there.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "collect/build_info.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// CUPTI's host API dlopens libnvperf_host.so with RTLD_DEEPBIND, which the ASan runtime
// refuses in a fresh process (the in-process host API tests still run under ASan).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCuptiHostCliUsable = false;
#else
constexpr bool kCuptiHostCliUsable = true;
#endif

TEST(SampleCli, HelpExitsZero) {
  auto r = run_cuprobe({"sample", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "--interval"));
  EXPECT_TRUE(contains(r.out, "--list-metrics"));
}

TEST(SampleCli, UsageErrorsExitTwoWithOneLine) {
  const std::vector<std::vector<std::string>> cases = {
      {"sample", "--interval", "500us"},
      {"sample", "--interval", "11s"},
      {"sample", "--interval", "fast"},
      {"sample", "--gpu", "zero"},
      {"sample", "--gpu", "0,,1"},
      {"sample", "--gpu", "-1"},
      {"sample", "--format", "xml"},
      {"sample", "--metrics", "a,,b"},
      {"sample", "--metrics", "a;b"},
      {"sample", "--duration", "0s"},
      {"sample", "--duration", "1s", "--", "true"},
      {"sample", "--chip", "GH100"},
      {"sample", "--preset", "bogus"},
      {"sample", "--no-such-option"},
  };
  for (const auto& args : cases) {
    auto r = run_cuprobe(args);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_EQ(r.exit_code, 2) << joined << r.err;
    EXPECT_FALSE(r.err.empty()) << joined;
    EXPECT_EQ(r.out, "") << joined;
  }
}

TEST(SampleCli, ListMetricsForAChipNeedsNoGpu) {
  if (!built_with_cupti()) GTEST_SKIP() << "built without CUPTI";
  if (!kCuptiHostCliUsable) GTEST_SKIP() << "CUPTI host API under ASan (RTLD_DEEPBIND)";
  auto r = run_cuprobe({"sample", "--list-metrics", "--chip", "GH100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "# preset 'triage' on GH100"));
  EXPECT_TRUE(contains(r.out, "tensor_active_pct\tsm__pipe_tensor_cycles_active_realtime"));
  EXPECT_TRUE(contains(r.out, "\ndram__bytes_read\tcounter\t"));
  auto gb202 = run_cuprobe({"sample", "--list-metrics", "--chip", "GB202"});
  ASSERT_EQ(gb202.exit_code, 0);
  EXPECT_TRUE(contains(gb202.out, "nvlink_rx_bytes_per_s\t(not exposed by this chip)"));
  auto ada = run_cuprobe({"sample", "--list-metrics", "--chip", "AD102"});
  ASSERT_EQ(ada.exit_code, 0);
  EXPECT_TRUE(contains(ada.out, "no 'triage' preset for AD102"));
}

TEST(SampleCli, ListMetricsRejectsUnknownChip) {
  if (!built_with_cupti()) GTEST_SKIP() << "built without CUPTI";
  if (!kCuptiHostCliUsable) GTEST_SKIP() << "CUPTI host API under ASan (RTLD_DEEPBIND)";
  auto r = run_cuprobe({"sample", "--list-metrics", "--chip", "XYZ"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "unknown chip 'XYZ'"));
  EXPECT_TRUE(contains(r.err, "GH100"));
}

// Runs only where no GPU is usable (CI): the refusal is one line, exit code 3,
// and nothing (certainly no zeros) on stdout.
TEST(SampleCli, WithoutGpuRefusesWithExit3AndPrintsNoSamples) {
  auto r = run_cuprobe({"sample", "--duration", "1s"});
  if (r.exit_code == 0) GTEST_SKIP() << "a GPU is usable here";
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "cuprobe sample: "));
  EXPECT_TRUE(contains(r.err, built_with_cupti() ? "driver" : "built without CUPTI")) << r.err;
}

TEST(SampleCli, WithoutGpuACommandIsNotStarted) {
  std::string dir = temp_dir();
  std::string marker = dir + "/ran";
  auto r = run_cuprobe({"sample", "--", "touch", marker});
  if (r.exit_code == 0) GTEST_SKIP() << "a GPU is usable here";
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(std::ifstream(marker).good()) << "the command ran although sampling was refused";
}

}  // namespace
}  // namespace cuprobe::test
