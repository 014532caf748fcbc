// Output equal to an input (issue 23 item 2): every verb refuses before
// writing, names both, and leaves the input as it was; a link planted at the
// old temporary name is never followed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/nsys_fixture.h"
#include "support/run_cuprobe.h"
#include "support/run_file_fixture.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

namespace fs = std::filesystem;

void expect_refused(const std::vector<std::string>& args, const std::string& output, const std::string& input) {
  std::string before = slurp(input);
  auto r = run_cuprobe(args);
  EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
  EXPECT_NE(r.err.find(output + ": this output is the input " + input), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(slurp(input), before) << args[0];
}

TEST(OutputOverInput, EveryVerbRefusesToWriteOverWhatItReads) {
  std::string dir = temp_dir();
  std::string run = small_run_file(dir + "/run.cuprobe");
  expect_refused({"export", "--chrome", run, "-o", run}, run, run);
  fs::create_symlink(run, dir + "/alias.json");
  expect_refused({"export", "--chrome", run, "-o", dir + "/alias.json"}, dir + "/alias.json", run);

  std::string nsys = nsys_fixture("nsys_decode_small.sql", "", "x.sqlite");
  expect_refused({"report", "-o", nsys, nsys}, nsys, nsys);
  std::string traces = dir + "/traces";  // a file found in a directory given is an input too
  fs::create_directories(traces);
  fs::copy_file(data_path("tp2_mlp_decode_rank0.json.gz"), traces + "/rank0.json.gz");
  expect_refused({"report", traces, "-o", traces + "/rank0.json.gz"}, traces + "/rank0.json.gz",
                 traces + "/rank0.json.gz");

  // analyze --csv: an input named like one of the four tables; none of the four is written.
  std::string csv = dir + "/csv";
  fs::create_directories(csv);
  fs::copy_file(data_path("format_begin_end.json"), csv + "/kernels.csv");
  expect_refused({"analyze", csv + "/kernels.csv", "--csv", csv}, csv + "/kernels.csv", csv + "/kernels.csv");
  EXPECT_EQ(fs::directory_iterator(csv)->path().filename(), "kernels.csv");
  EXPECT_EQ(std::distance(fs::directory_iterator(csv), fs::directory_iterator()), 1);

  // bench: refused before any request is sent.
  StreamServer s(StreamServerOptions{});
  std::string dataset = dir + "/prompts.jsonl";
  std::ofstream(dataset) << "{\"prompt\": \"hello there\"}\n";
  expect_refused(
      {"bench", s.url(), "--dataset-name", "jsonl", "--dataset-path", dataset, "-n", "2", "--save-requests", dataset},
      dataset, dataset);
  expect_refused({"bench", s.url(), "--dataset", dataset, "-n", "2", "--result-file", dataset}, dataset, dataset);
  EXPECT_TRUE(s.served().empty());
}

TEST(OutputOverInput, ALinkPlantedAtTheOldTemporaryNameIsNotFollowed) {
  std::string dir = temp_dir();
  std::string victim = dir + "/victim.txt";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, dir + "/out.json.partial");
  fs::create_hard_link(victim, dir + "/page.html.partial");
  std::string trace = data_path("format_begin_end.json");
  auto r = run_cuprobe({"export", "--chrome", trace, "-o", dir + "/out.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cuprobe({"report", trace, "-o", dir + "/page.html"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(dir + "/out.json"));
  EXPECT_NE(slurp(dir + "/out.json").find("traceEvents"), std::string::npos);
}

TEST(OutputOverInput, WriterErrorsNameTheTargetAndTheErrno) {
  std::string trace = data_path("format_begin_end.json");
  auto r = run_cuprobe({"export", "--chrome", trace, "-o", "/nonexistent-dir/t.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write /nonexistent-dir/t.json: No such file or directory (ENOENT)"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find(".partial"), std::string::npos) << r.err;
  // record -o where no file can be made: the errno, not SQLite's "unable to open database file".
  std::string file = write_temp_file("plain.txt", "x");
  r = run_cuprobe({"record", "--no-counters", "-o", file + "/run.cuprobe", "--", "true"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(file + "/run.cuprobe: cannot create: Not a directory (ENOTDIR)"), std::string::npos) << r.err;
  if (::geteuid() == 0) return;  // root writes into a read-only directory
  std::string dir = temp_dir();
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  r = run_cuprobe({"record", "--no-counters", "-o", dir + "/run.cuprobe", "--", "true"});
  fs::permissions(dir, fs::perms::owner_all);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir + "/run.cuprobe: cannot create: Permission denied (EACCES)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cuprobe::test
