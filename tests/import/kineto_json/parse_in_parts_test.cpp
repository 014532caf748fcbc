// Differential test (issue 11): the one-thread and the two-thread parse give
// the same profile for every fixture in tests/data.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "import/byte_source.h"
#include "import/kineto_json/kineto_importer.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

void expect_same(const Profile& a, const Profile& b, const std::string& what) {
  ASSERT_EQ(a.gpu.size(), b.gpu.size()) << what;
  ASSERT_EQ(a.cpu.size(), b.cpu.size()) << what;
  for (std::size_t i = 0; i < a.gpu.size(); ++i) {
    const auto &x = a.gpu[i], &y = b.gpu[i];
    ASSERT_TRUE(x.start == y.start && x.end == y.end && x.kind == y.kind && x.device == y.device &&
                x.stream == y.stream && x.correlation == y.correlation && x.bytes == y.bytes &&
                a.name_of(x.name) == b.name_of(y.name))
        << what << ": GPU activity " << i;
  }
  for (std::size_t i = 0; i < a.cpu.size(); ++i) {
    const auto &x = a.cpu[i], &y = b.cpu[i];
    ASSERT_TRUE(x.start == y.start && x.end == y.end && x.kind == y.kind && x.pid == y.pid && x.tid == y.tid &&
                x.correlation == y.correlation && a.name_of(x.name) == b.name_of(y.name))
        << what << ": CPU range " << i;
    ASSERT_EQ(x.inputs < 0, y.inputs < 0) << what << ": CPU range " << i;
    if (x.inputs < 0) continue;
    const auto &xa = a.op_inputs.at(static_cast<std::size_t>(x.inputs)).args,
               &ya = b.op_inputs.at(static_cast<std::size_t>(y.inputs)).args;
    ASSERT_EQ(xa.size(), ya.size()) << what << ": CPU range " << i;
    for (std::size_t k = 0; k < xa.size(); ++k) {
      ASSERT_TRUE(xa[k].type == ya[k].type && xa[k].dims == ya[k].dims && xa[k].list_dims == ya[k].list_dims &&
                  xa[k].concrete == ya[k].concrete)
          << what << ": CPU range " << i << " argument " << k;
    }
  }
  EXPECT_EQ(a.stats.events, b.stats.events) << what;
  for (std::size_t s = 0; s < kImportStatCount; ++s) {
    EXPECT_EQ(a.stats.count(static_cast<ImportStat>(s)), b.stats.count(static_cast<ImportStat>(s)))
        << what << ": " << import_stat_info(static_cast<ImportStat>(s)).id;
  }
  EXPECT_EQ(a.rank, b.rank) << what;
  EXPECT_EQ(a.devices.size(), b.devices.size()) << what;
}

TEST(KinetoParseInParts, OneAndTwoThreadsAgreeOnEveryFixture) {
  std::string dir = test::temp_dir();
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_path(""))) {
    std::string name = entry.path().filename().string();
    if (name.find(".json") == std::string::npos) continue;
    std::string plain = dir + "/" + name + ".plain.json";
    auto source = open_byte_source(entry.path().string());
    copy_to_file(*source, plain, name);
    Profile one = import_kineto_json(plain, UINT64_MAX);
    Profile two = import_kineto_json(plain, 0);
    bool parts = false;
    for (const auto& [k, v] : two.metadata) parts |= k == "parsed_in_parts";
    EXPECT_TRUE(parts) << name << ": the second thread's half was not adopted";
    expect_same(one, two, name);
    ++traces;
  }
  EXPECT_GE(traces, 6);
}

// The same through the command line, whole output compared: `analyze --json` of every Kineto trace in
// tests/data and ../shared/traces (decompressed: only plain files are split), one thread vs two.
TEST(KinetoParseInParts, AnalyzeJsonIsTheSameFromOneOrTwoThreads) {
  std::vector<std::filesystem::path> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_path(""))) inputs.push_back(entry.path());
  if (std::string readme = test::shared_trace("README.md"); !readme.empty()) {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(readme).parent_path())) {
      if (entry.path().extension() == ".gz") inputs.push_back(entry.path());  // the .xz is 346 MiB: the bench's
    }
  }
  std::string dir = test::temp_dir();
  int compared = 0;
  for (const auto& input : inputs) {
    std::string name = input.filename().string();
    if (name.find(".json") == std::string::npos) continue;
    std::string plain = dir + "/" + std::to_string(compared) + "_" + name + ".plain.json";
    auto source = open_byte_source(input.string());
    copy_to_file(*source, plain, name);
    ::setenv("CUPROBE_SPLIT_ABOVE", "18446744073709551615", 1);
    test::CommandResult one = test::run_cuprobe({"analyze", "--json", plain});
    ::setenv("CUPROBE_SPLIT_ABOVE", "0", 1);
    test::CommandResult two = test::run_cuprobe({"analyze", "--json", plain});
    ::unsetenv("CUPROBE_SPLIT_ABOVE");
    EXPECT_EQ(one.exit_code, two.exit_code) << name << ": " << one.err << " / " << two.err;
    EXPECT_TRUE(one.out == two.out) << name << ": analyze --json differs between one and two threads";
    EXPECT_EQ(one.err, two.err) << name;
    EXPECT_FALSE(one.out.empty()) << name << ": " << one.err;
    ++compared;
  }
  EXPECT_GE(compared, 6);
}

}  // namespace
}  // namespace cuprobe
