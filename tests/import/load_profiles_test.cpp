#include "import/load_profiles.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>
#include <sstream>

#include "common/error.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// issue 11 B8: the sniff must not eat the first bytes of a pipe.
TEST(LoadProfiles, ReadsTracesFromAPipe) {
  for (const char* name : {"tp2_mlp_decode_rank0.json.gz", "mla_fp8pool_fullcast_small.json.gz"}) {
    std::string bytes = file_bytes(test::data_path(name));
    auto r = test::run_cuprobe({"analyze", "--json", "/dev/stdin"}, bytes);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_NE(r.out.find("cuprobe.analyze/1"), std::string::npos);
  }
}

TEST(LoadProfiles, ReadsATraceFromAFifoOnce) {
  std::string fifo = test::temp_dir() + "/t.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string bytes = file_bytes(test::data_path("tp2_mlp_decode_rank0.json.gz"));
  // The writer is there before the reader (O_RDWR opens without waiting for one).
  int fd = ::open(fifo.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  auto writer = std::async(std::launch::async, [&] {
    for (std::size_t done = 0; done < bytes.size();) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  Profile p = load_profile(fifo);
  writer.get();
  EXPECT_FALSE(p.gpu.empty());
  EXPECT_EQ(p.file, fifo);
}

TEST(LoadProfiles, AFifoNobodyWritesToIsAnErrorNotAHang) {
  std::string fifo = test::temp_dir() + "/idle.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto start = std::chrono::steady_clock::now();
  auto r = test::run_cuprobe({"analyze", fifo});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(fifo + ": byte 0: empty file"), std::string::npos) << r.err;
}

TEST(LoadProfiles, TwoFilesClaimingOneRankAreWarnedAboutByName) {
  std::string dir = test::temp_dir();
  std::string trace = R"J({"distributedInfo": {"rank": 1}, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 1, "args": {"correlation": 1}}]})J";
  std::ofstream(dir + "/a.json") << trace;
  std::ofstream(dir + "/b.json") << trace;
  std::vector<Profile> ps = load_profiles({dir + "/a.json", dir + "/b.json"});
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].stats.get(ImportStat::kDuplicateRank).example, "rank 1 is claimed by " + dir + "/b.json too");
  EXPECT_EQ(ps[1].stats.get(ImportStat::kDuplicateRank).example, "rank 1 is claimed by " + dir + "/a.json too");
  auto r = test::run_cuprobe({"analyze", dir + "/a.json", dir + "/b.json"});
  EXPECT_NE(r.out.find("rank 1 is claimed by " + dir + "/b.json too"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cuprobe
