#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "collect/build_info.h"
#include "common/version.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(Main, NoVerbIsUsageError) {
  auto r = run_cuprobe({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "usage")) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
}

TEST(Main, UnknownVerbIsUsageError) {
  auto r = run_cuprobe({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "unknown verb 'frobnicate'")) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
}

TEST(Main, UnknownTopLevelOptionIsOneLineUsageError) {
  auto r = run_cuprobe({"--frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--frobnicate")) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
}

TEST(Main, HelpListsVerbs) {
  for (const char* flag : {"--help", "-h", "help"}) {
    auto r = run_cuprobe({flag});
    EXPECT_EQ(r.exit_code, 0) << flag;
    EXPECT_TRUE(contains(r.out, "Verbs:")) << flag << r.out;
    for (const char* verb : {"analyze", "bench", "record", "sample", "wait"}) EXPECT_TRUE(contains(r.out, verb));
  }
}

TEST(Main, VersionPrintsTheVersionAndTheCollectors) {
  for (const char* flag : {"--version", "-V"}) {
    auto r = run_cuprobe({flag});
    EXPECT_EQ(r.exit_code, 0) << flag;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), std::string("cuprobe ") + kVersion) << r.out;
    if (built_with_cupti()) {
      EXPECT_TRUE(contains(r.out, "built with CUPTI")) << r.out;
      EXPECT_TRUE(contains(r.out, "injection library")) << r.out;
    } else {
      EXPECT_TRUE(contains(r.out, "collectors: not built")) << r.out;
    }
  }
  auto with_verb = run_cuprobe({"--version", "sample"});
  EXPECT_EQ(with_verb.exit_code, 2);
  EXPECT_TRUE(contains(with_verb.err, "--version takes no verb")) << with_verb.err;
}

TEST(Main, HelpVerbPrintsTheVerbsHelp) {
  for (const char* verb : {"analyze", "bench", "devices", "diff", "export", "record", "sample", "wait"}) {
    auto via_help = run_cuprobe({"help", verb});
    auto via_flag = run_cuprobe({verb, "--help"});
    EXPECT_EQ(via_help.exit_code, 0) << verb << via_help.err;
    EXPECT_EQ(via_help.out, via_flag.out) << verb;
    EXPECT_TRUE(contains(via_help.out, std::string("cuprobe ") + verb)) << via_help.out;
  }
}

TEST(Main, HelpOfAnUnknownVerbIsUsageError) {
  auto r = run_cuprobe({"help", "frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "unknown verb 'frobnicate'")) << r.err;
  EXPECT_EQ(run_cuprobe({"help", "sample", "extra"}).exit_code, 2);
}

TEST(Main, VerbArgumentsReachTheVerbUntouched) {
  // Names of other verbs and top-level flags after the verb are the verb's arguments.
  auto r = run_cuprobe({"wait", "--version"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "cuprobe wait:")) << r.err;
  auto h = run_cuprobe({"diff", "help", "sample"});
  EXPECT_TRUE(contains(h.err, "cuprobe diff:")) << h.err;
}

}  // namespace
}  // namespace cuprobe::test
