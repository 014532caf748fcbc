// SQLite inputs with committed data still in their -wal (issue 23 item 5):
// read at the newest data, with nothing created or changed beside the input.
#include "import/sqlite_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "import/load_profiles.h"
#include "store/sqlite_db.h"
#include "support/nsys_fixture.h"
#include "support/run_cuprobe.h"
#include "support/run_file_fixture.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

// Every file in the directory with its size and bytes, to prove a reader changed nothing there.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files[e.path().filename().string()] = test::slurp(e.path());
  return files;
}

// A writer in WAL mode that keeps its connection (and so its -wal) open, with a third kernel committed in the WAL.
struct WalWriter {
  explicit WalWriter(const std::string& path) : db(path, SqliteDb::Mode::kReadWrite) {
    db.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.exec(
        "INSERT INTO kernels SELECT pid, device, stream, start_ns + 5000, end_ns + 5000, name_id, grid_x, grid_y, "
        "grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared, correlation, graph_id FROM "
        "kernels LIMIT 1");
  }
  SqliteDb db;
};

TEST(SqliteInput, CommittedDataInTheWalIsRead) {
  std::string dir = test::temp_dir();
  std::string path = test::small_run_file(dir + "/r.cuprobe");
  WalWriter writer(path);
  ASSERT_TRUE(fs::exists(path + "-wal"));
  ASSERT_GT(fs::file_size(path + "-wal"), 0u);
  auto before = snapshot(dir);
  {
    SqliteDb immutable(path, SqliteDb::Mode::kReadOnly);  // what was read before: the older snapshot
    auto s = immutable.prepare("SELECT count(*) FROM kernels");
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.int64(0), 2);
  }
  Profile p = load_profile(path);
  EXPECT_EQ(p.gpu.size(), 3u);
  auto r = test::run_cuprobe({"analyze", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["ranks"][0]["gpu_activities"], 3);
  EXPECT_EQ(snapshot(dir), before) << "nothing created or changed beside the input";
}

TEST(SqliteInput, AnNsysExportWithAWalIsReadAtItsNewestData) {
  std::string path = test::nsys_fixture("nsys_decode_small.sql");
  std::string dir = fs::path(path).parent_path().string();
  std::size_t kernels = load_trace_file(path).front().gpu.size();
  SqliteDb writer(path, SqliteDb::Mode::kReadWrite);
  writer.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; PRAGMA wal_checkpoint(TRUNCATE);");
  writer.exec(
      "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = (SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL)");
  auto before = snapshot(dir);
  std::vector<Profile> ps = load_trace_file(path);
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].gpu.size(), kernels - 1);
  EXPECT_EQ(snapshot(dir), before);
}

// A WAL-mode file closed cleanly (no -wal) is opened in place: no -wal or -shm appears beside it.
TEST(SqliteInput, AWalModeFileAloneIsOpenedInPlace) {
  std::string dir = test::temp_dir();
  std::string path = test::small_run_file(dir + "/r.cuprobe");
  { WalWriter writer(path); }
  ASSERT_FALSE(fs::exists(path + "-wal"));
  auto before = snapshot(dir);
  SqliteInput input(path, path);
  EXPECT_EQ(input.companion(), "");
  EXPECT_EQ(load_profile(path).gpu.size(), 3u);
  EXPECT_EQ(snapshot(dir), before);
}

}  // namespace
}  // namespace cuprobe
