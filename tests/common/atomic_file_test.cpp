#include "common/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cuprobe_atomic_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesThroughPartialAndReplaces) {
  fs::path p = dir_ / "out.json";
  write_file_atomically(p.string(), "old");
  write_file_atomically(p.string(), std::string("new\0text", 8));
  EXPECT_EQ(read_all(p), std::string("new\0text", 8));
  EXPECT_FALSE(fs::exists(dir_ / "out.json.partial"));
}

TEST_F(AtomicFileTest, UncommittedWriteLeavesPartialAndTheOldFile) {
  fs::path p = dir_ / "out.txt";
  write_file_atomically(p.string(), "complete");
  {
    AtomicFile f(p.string());
    f.stream() << "half";
  }
  EXPECT_EQ(read_all(p), "complete");
  EXPECT_EQ(read_all(dir_ / "out.txt.partial"), "half");
}

TEST_F(AtomicFileTest, UnwritablePathIsOneClearError) {
  std::string p = (dir_ / "no_such_dir" / "x").string();
  try {
    write_file_atomically(p, "x");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + p + ".partial"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuprobe
