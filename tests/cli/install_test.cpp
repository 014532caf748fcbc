// `cmake --install BUILD --prefix P` gives a cuprobe that runs from P and finds
// its injection library there (the path `cuprobe record` would hand the command).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "collect/build_info.h"
#include "common/version.h"
#include "store/sqlite_db.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

namespace fs = std::filesystem;

std::string find_under(const fs::path& dir, const std::string& name) {
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().filename() == name) return entry.path().string();
  }
  return {};
}

// The installed copy is a few MB: removed however the test ends.
struct RemovedAtEnd {
  fs::path path;
  ~RemovedAtEnd() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

TEST(Install, InstalledBinaryRunsAndFindsTheInjectionLibrary) {
  fs::path prefix = fs::canonical(temp_dir());
  RemovedAtEnd cleanup{prefix};
  auto install = run_program(CUPROBE_CMAKE_COMMAND, {"--install", CUPROBE_BUILD_DIR, "--prefix", prefix.string()});
  ASSERT_EQ(install.exit_code, 0) << install.out << install.err;
  std::string binary = (prefix / "bin" / "cuprobe").string();
  ASSERT_TRUE(fs::exists(binary));

  auto version = run_program(binary, {"--version"});
  ASSERT_EQ(version.exit_code, 0) << version.err;
  EXPECT_EQ(version.out.substr(0, version.out.find('\n')), std::string("cuprobe ") + kVersion);
  std::string library = find_under(prefix, "libcuprobe_inject.so");
  if (!built_with_cupti()) {
    EXPECT_EQ(library, "") << "an analysis-only build installs no injection library";
    EXPECT_NE(version.out.find("collectors: not built"), std::string::npos) << version.out;
    return;
  }
  ASSERT_NE(library, "") << install.out;
  EXPECT_NE(library.find(prefix.string() + "/lib"), std::string::npos) << library;
  EXPECT_NE(version.out.find("injection library " + library + "\n"), std::string::npos) << version.out;

  std::string run = prefix.string() + "/run.cuprobe";
  auto record = run_program(binary, {"record", "--no-counters", "-o", run, "--", "true"});
  ASSERT_EQ(record.exit_code, 0) << record.err;
  SqliteDb db(run, SqliteDb::Mode::kReadOnly);
  auto s = db.prepare("SELECT value FROM metadata WHERE key = 'inject_library'");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0), library);
}

}  // namespace
}  // namespace cuprobe::test
