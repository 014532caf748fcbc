// One spelling per option on the verbs that sample counters or pick GPUs
// (docs/cli.md): --gpu, --interval, --preset. The old spellings still work,
// hidden from --help, with one warning line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (auto at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

TEST(CounterOptions, EveryVerbSpellsThemTheSameWay) {
  for (const char* verb : {"sample", "record", "bench"}) {
    auto help = run_cuprobe({verb, "--help"});
    ASSERT_EQ(help.exit_code, 0) << verb;
    for (const char* option : {"  --gpu ", "  --interval ", "  --preset "}) {
      EXPECT_EQ(count(help.out, option), 1u) << verb << option << help.out;
    }
    for (const char* old : {"--counter-gpus", "--sample-interval", "--sample-preset"}) {
      EXPECT_EQ(count(help.out, old), 0u) << verb << old;
    }
  }
}

struct OldSpelling {
  std::vector<std::string> args;
  std::string warning;
  std::string error;  // proves the value reached the option as spelled now
};

TEST(CounterOptions, OldSpellingsWarnOnceAndReachTheCurrentOption) {
  const std::vector<OldSpelling> cases = {
      {{"record", "--sample-interval", "0s", "--", "true"},
       "--sample-interval is deprecated, use --interval",
       "--interval must be positive"},
      {{"record", "--counter-gpus", "0,x", "--", "true"},
       "--counter-gpus is deprecated, use --gpu",
       "invalid --gpu '0,x'"},
      {{"bench", "http://127.0.0.1:1", "--sample-preset", "bogus"},
       "--sample-preset is deprecated, use --preset",
       "--preset: bogus not in"},
      {{"bench", "http://127.0.0.1:1", "--sample", "--sample-interval", "fast"},
       "--sample-interval is deprecated, use --interval",
       "fast"},
  };
  for (const auto& c : cases) {
    auto r = run_cuprobe(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.warning << r.err;
    EXPECT_EQ(count(r.err, c.warning + "\n"), 1u) << r.err;
    EXPECT_EQ(count(r.err, "deprecated"), 1u) << r.err;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
  }
}

TEST(CounterOptions, OldSpellingsStillRun) {
  std::string out = temp_dir() + "/run.cuprobe";
  auto r = run_cuprobe({"record", "--no-counters", "--inject-library", "/nonexistent/libx.so", "--counter-gpus", "all",
                        "--sample-interval", "20ms", "-o", out, "--", "true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.err, "cuprobe record: --counter-gpus is deprecated, use --gpu\n"), 1u) << r.err;
  EXPECT_EQ(count(r.err, "cuprobe record: --sample-interval is deprecated, use --interval\n"), 1u) << r.err;
}

TEST(CounterOptions, BothSpellingsAreAUsageError) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"record", "--gpu", "0", "--counter-gpus", "1", "--", "true"},
           {"record", "--sample-interval", "5ms", "--interval", "5ms", "--", "true"},
           {"bench", "http://127.0.0.1:1", "--sample-preset", "pipes", "--preset", "triage"}}) {
    auto r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << r.err;
    EXPECT_EQ(count(r.err, "\n"), 1u) << r.err;
    EXPECT_NE(r.err.find("give only one"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace cuprobe::test
