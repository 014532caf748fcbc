// Run files that lie (issue 11: B4, B5, B9): wrong types, extreme times,
// invalid UTF-8, views instead of tables, a -journal beside the file.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "import/run_file/run_file_importer.h"
#include "support/run_cuprobe.h"
#include "support/run_file_fixture.h"

namespace cuprobe {
namespace {

// Two kernels, then `sql` run on the file to spoil it.
std::string run_file(const std::string& sql) { return test::small_run_file(test::temp_dir() + "/r.cuprobe", sql); }

std::string import_error(const std::string& path) {
  try {
    import_run_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RunFileHostile, TextWhereAnIntegerIsExpectedIsCountedNotReadAsZero) {
  Profile p = import_run_file(run_file("UPDATE kernels SET start_ns = 'soon' WHERE start_ns = 1000"));
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].start, 2000);
  EXPECT_EQ(p.stats.count(ImportStat::kWrongValueType), 1);
  EXPECT_EQ(p.stats.get(ImportStat::kWrongValueType).example, "kernels.start_ns = 'soon'");
}

TEST(RunFileHostile, TimesOutOfRangeAreDroppedAndCounted) {
  Profile p =
      import_run_file(run_file("UPDATE kernels SET end_ns = 9223372036854775807 WHERE start_ns = 1000;"
                               "UPDATE kernels SET static_shared = 4294967296 WHERE start_ns = 2000"));
  EXPECT_TRUE(p.gpu.empty());
  EXPECT_EQ(p.stats.count(ImportStat::kTimeOutOfRange), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kValueOutOfRange), 1);
}

TEST(RunFileHostile, AnExtremeButRepresentableWindowIsNotNegative) {
  std::string path = run_file(
      "UPDATE kernels SET start_ns = -4611686018427387903, end_ns = -4611686018427387000 "
      "WHERE start_ns = 1000;"
      "UPDATE kernels SET start_ns = 4611686018427387000, end_ns = 4611686018427387903 "
      "WHERE start_ns = 2000");
  auto r = test::run_cuprobe({"analyze", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["ranks"][0]["window_ms"].get<double>(), 9e12);
  auto chrome = test::run_cuprobe({"export", "--chrome", path, "-o", test::temp_dir() + "/t.json"});
  EXPECT_EQ(chrome.exit_code, 0) << chrome.err;
}

TEST(RunFileHostile, InvalidUtf8InNamesIsRepairedSoJsonStaysValid) {
  std::string path = run_file("UPDATE names SET name = CAST(X'67656D6DFF0A' AS TEXT) WHERE name = 'gemm'");
  Profile p = import_run_file(path);
  EXPECT_EQ(p.stats.count(ImportStat::kInvalidUtf8), 1);
  auto r = test::run_cuprobe({"analyze", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::accept(r.out));
  auto d = test::run_cuprobe({"diff", "--json", path, path});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_TRUE(nlohmann::json::accept(d.out));
  std::string out = test::temp_dir() + "/chrome.json";
  ASSERT_EQ(test::run_cuprobe({"export", "--chrome", path, "-o", out}).exit_code, 0);
  std::ifstream in(out);
  EXPECT_TRUE(nlohmann::json::accept(in));
}

TEST(RunFileHostile, AViewInsteadOfATableIsRefusedAtOnce) {
  std::string path = run_file(
      "DROP TABLE kernels; CREATE VIEW kernels AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
      "SELECT x AS pid, 0 AS device, 0 AS stream, x AS start_ns, x AS end_ns, 1 AS name_id, 1 AS grid_x, 1 AS grid_y, "
      "1 AS grid_z, 1 AS block_x, 1 AS block_y, 1 AS block_z, 1 AS registers, 0 AS static_shared, "
      "0 AS dynamic_shared, x AS correlation, -1 AS graph_id FROM n");
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(import_error(path), path + ": not a cuprobe run file ('kernels' is a view, not a table)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  auto r = test::run_cuprobe({"export", "--chrome", path, "-o", test::temp_dir() + "/t.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(RunFileHostile, AJournalBesideTheFileIsLeftAlone) {
  std::string path = run_file("");
  std::string junk = "not a journal, but it must survive";
  std::ofstream(path + "-journal", std::ios::binary) << junk;
  auto before = std::filesystem::last_write_time(path);
  Profile p = import_run_file(path);
  EXPECT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.stats.count(ImportStat::kJournalBeside), 1);
  ASSERT_TRUE(std::filesystem::exists(path + "-journal"));
  EXPECT_EQ(test::slurp(path + "-journal"), junk);
  EXPECT_EQ(std::filesystem::last_write_time(path), before);
}

}  // namespace
}  // namespace cuprobe
