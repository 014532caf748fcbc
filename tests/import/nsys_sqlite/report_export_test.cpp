#include "import/nsys_sqlite/report_export.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "import/load_profiles.h"
#include "support/nsys_fixture.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

// Sets PATH for one test and puts it back.
class ScopedPath {
 public:
  explicit ScopedPath(const std::string& path) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    setenv("PATH", path.c_str(), 1);
  }
  ~ScopedPath() { setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

// A stand-in for nsys: `nsys export --type sqlite --quiet true -o OUT REPORT`
// copies REPORT (here an SQLite file already) to OUT, and logs its arguments.
std::string fake_nsys_dir(int exit_code = 0) {
  std::string dir = test::temp_dir();
  std::ofstream(dir + "/nsys") << "#!/bin/sh\n"
                               << "echo \"$@\" > \"$(dirname \"$0\")/args\"\n"
                               << "echo 'progress on stdout'\n"
                               << "[ " << exit_code << " = 0 ] || exit " << exit_code << "\n"
                               << "cp \"$8\" \"$7\"\n";
  chmod((dir + "/nsys").c_str(), 0755);
  return dir;
}

std::string report_file() {
  std::string sqlite = test::nsys_fixture("nsys_decode_small.sql");
  std::string report = test::temp_dir() + "/decode run.nsys-rep";
  std::filesystem::copy_file(sqlite, report);
  return report;
}

TEST(NsysReportExport, KnowsReportNames) {
  EXPECT_TRUE(is_nsys_report_name("a/b.nsys-rep"));
  EXPECT_TRUE(is_nsys_report_name("old.qdrep"));
  EXPECT_FALSE(is_nsys_report_name("b.sqlite"));
  EXPECT_FALSE(is_nsys_report_name("nsys-rep"));
}

TEST(NsysReportExport, RunsNsysExportWhenItIsOnPath) {
  std::string report = report_file();
  std::string nsys = fake_nsys_dir();
  ScopedPath path(nsys + ":/usr/bin:/bin");
  Profile p = load_profile(report);
  EXPECT_EQ(p.source, "nsys");
  EXPECT_EQ(p.file, report);
  EXPECT_EQ(p.gpu.size(), 31u);
  std::ifstream args(nsys + "/args");
  std::string line;
  std::getline(args, line);
  EXPECT_TRUE(line.starts_with("export --type sqlite --quiet true -o ")) << line;
  EXPECT_TRUE(line.ends_with(report)) << line;
}

TEST(NsysReportExport, SaysTheCommandWhenNsysIsMissingOrFails) {
  std::string report = report_file();
  {
    ScopedPath path(test::temp_dir());
    try {
      load_profile(report);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                report +
                    ": an Nsight Systems report: cuprobe reads its SQLite export, and nsys is not on PATH here; "
                    "run `nsys export --type sqlite -o 'decode run.sqlite' '" +
                    report + "'` where nsys is, then `cuprobe analyze 'decode run.sqlite'`");
    }
  }
  ScopedPath path(fake_nsys_dir(3) + ":/usr/bin:/bin");
  try {
    load_profile(report);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("`nsys export --type sqlite` failed (exit 3"), std::string::npos) << e.what();
  }
}

TEST(NsysReportExport, CliKeepsNsysOutputOffStdout) {
  std::string report = report_file();
  ScopedPath path(fake_nsys_dir() + ":/usr/bin:/bin");  // the child cuprobe inherits PATH
  auto r = test::run_cuprobe({"analyze", "--json", report});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("progress on stdout"), std::string::npos);
  EXPECT_NE(r.err.find("progress on stdout"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe
