// The one sniffer (issue 22 item 4, issue 23 item 6): what kind of file an
// input is, for files given, directories and pipes alike; gzip and xz run
// files (issue 25 item 6).
#include "import/trace_format.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "import/load_profiles.h"
#include "store/sqlite_db.h"
#include "support/nsys_fixture.h"
#include "support/run_cuprobe.h"
#include "support/run_file_fixture.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

// `gzip -k` or `xz -k` of a file: returns the compressed file's path.
std::string compressed(const std::string& path, const char* tool) {
  auto r = test::run_program(std::string("/usr/bin/") + tool, {"-k", "-f", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path + (std::string(tool) == "gzip" ? ".gz" : ".xz");
}

TEST(TraceFormat, EachKindOfFileIsToldApart) {
  std::string dir = test::temp_dir();
  std::string run = test::small_run_file(dir + "/r.cuprobe");
  { SqliteDb(dir + "/notes.db", SqliteDb::Mode::kCreate).exec("CREATE TABLE t(x)"); }
  std::ofstream(dir + "/bench.json") << R"({"schema": "cuprobe.bench/1", "results": []})";
  std::ofstream(dir + "/blank.json") << " \n\t ";
  std::ofstream(dir + "/notes.txt") << "hello";
  std::ofstream(dir + "/r.nsys-rep") << "not read";
  struct Case {
    std::string path;
    TraceFormat format;
    const char* encoding;
  };
  for (const Case& c : std::vector<Case>{
           {test::data_path("tp2_mlp_decode_rank0.json.gz"), TraceFormat::kKinetoJson, "gzip"},
           {test::data_path("format_begin_end.json"), TraceFormat::kKinetoJson, "plain"},
           {run, TraceFormat::kRunFile, "plain"},
           {compressed(run, "gzip"), TraceFormat::kSqliteStream, "gzip"},
           {compressed(run, "xz"), TraceFormat::kSqliteStream, "xz"},
           {test::nsys_fixture("nsys_decode_small.sql"), TraceFormat::kNsysExport, "plain"},
           {dir + "/notes.db", TraceFormat::kOtherSqlite, "plain"},
           {dir + "/bench.json", TraceFormat::kOtherJson, "plain"},
           {dir + "/blank.json", TraceFormat::kEmpty, "plain"},
           {dir + "/notes.txt", TraceFormat::kUnknown, "plain"},
           {dir + "/r.nsys-rep", TraceFormat::kNsysReport, "plain"},
           {test::data_path("rocprofv3/matrix_transpose_results.json"), TraceFormat::kRocprofv3Json, "plain"},
       }) {
    TraceSniff s = sniff_trace_format(c.path);
    EXPECT_EQ(s.format, c.format) << c.path;
    EXPECT_EQ(s.encoding, c.encoding) << c.path;
  }
}

TEST(TraceFormat, ADamagedSqliteFileIsCalledThatWithSqlitesReason) {
  std::string path = test::small_run_file(test::temp_dir() + "/r.cuprobe");
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    std::string junk(3000, '\x5a');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  TraceSniff s = sniff_trace_format(path);
  EXPECT_EQ(s.format, TraceFormat::kDamagedSqlite);
  EXPECT_FALSE(s.detail.empty());
  EXPECT_TRUE(s.kept_in_directory("r.cuprobe"));
  auto r = test::run_cuprobe({"analyze", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path + ": a damaged SQLite file ("), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("unreadable run file"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// issue 25 item 6: run files as people store and send them.
TEST(TraceFormat, GzipAndXzRunFilesAreReadByEveryVerb) {
  std::string dir = test::temp_dir();
  std::string run = test::small_run_file(dir + "/r.cuprobe");
  Profile plain = load_profile(run);
  for (const char* tool : {"gzip", "xz"}) {
    std::string packed = compressed(run, tool);
    Profile p = load_profile(packed);
    EXPECT_EQ(p.file, packed);
    EXPECT_EQ(p.source, "cuprobe-run");
    EXPECT_EQ(p.gpu.size(), plain.gpu.size()) << tool;
    auto a = test::run_cuprobe({"analyze", "--json", packed});
    EXPECT_EQ(a.exit_code, 0) << a.err;
    EXPECT_NE(a.out.find("softmax"), std::string::npos);
    auto e = test::run_cuprobe({"export", "--chrome", packed, "-o", dir + "/" + tool + ".trace.json"});
    EXPECT_EQ(e.exit_code, 0) << e.err;
    auto rep = test::run_cuprobe({"report", packed, "-o", dir + "/" + tool + ".html"});
    EXPECT_EQ(rep.exit_code, 0) << rep.err;
    auto d = test::run_cuprobe({"diff", run, packed});
    EXPECT_EQ(d.exit_code, 0) << d.err;
    auto piped = test::run_cuprobe({"analyze", "--json", "/dev/stdin"}, test::slurp(packed));
    EXPECT_EQ(piped.exit_code, 0) << piped.err;
  }
  // A gzip run file cut short: one line naming it.
  std::string packed = compressed(run, "gzip");
  fs::resize_file(packed, fs::file_size(packed) / 2);
  auto r = test::run_cuprobe({"analyze", packed});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(packed + ": byte "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated gzip stream"), std::string::npos) << r.err;
}

// `report DIR` takes exactly what `analyze DIR` takes (issue 23 "report DIR is not analyze DIR").
TEST(TraceFormat, ReportAndAnalyzeTakeTheSameDirectory) {
  std::string dir = test::temp_dir(), traces = dir + "/traces";
  fs::create_directories(traces);
  fs::copy_file(test::data_path("tp2_mlp_decode_rank0.json.gz"), traces + "/rank0.json.gz");
  fs::copy_file(test::nsys_fixture("nsys_decode_small.sql"), traces + "/rank1.sqlite");
  test::small_run_file(traces + "/rank2.cuprobe");
  ASSERT_EQ(test::run_program("/usr/bin/gzip", {traces + "/rank2.cuprobe"}).exit_code, 0);
  std::ofstream(traces + "/bench.json") << R"({"schema": "cuprobe.bench/1", "results": []})";
  fs::create_symlink("loop", traces + "/loop");
  fs::create_symlink("nowhere", traces + "/dangling.json");
  auto analyze = test::run_cuprobe({"analyze", "--json", traces});
  ASSERT_EQ(analyze.exit_code, 0) << analyze.err;
  nlohmann::json a = nlohmann::json::parse(analyze.out);
  ASSERT_EQ(a["ranks"].size(), 3u);
  auto report = test::run_cuprobe({"report", traces, "-o", dir + "/r.html"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.err.find("filesystem error"), std::string::npos) << report.err;
  std::string page = test::slurp(dir + "/r.html");
  EXPECT_NE(page.find("rank2.cuprobe.gz"), std::string::npos);
  EXPECT_NE(page.find("rank1.sqlite"), std::string::npos);
  EXPECT_NE(page.find("bench.json (JSON without"), std::string::npos);  // skipped, and said so

  std::vector<Profile> ps = load_profiles({traces});
  ASSERT_EQ(ps.size(), 3u);
  const ImportStatCount& skipped = ps[0].stats.get(ImportStat::kNotATraceFile);
  EXPECT_EQ(skipped.count, 3);  // bench.json, dangling.json, loop
  EXPECT_EQ(skipped.example, "bench.json (JSON without \"traceEvents\" in its first MiB)");
}

TEST(TraceFormat, ALinkLoopGivenOrInsideADirectoryIsOneLine) {
  std::string dir = test::temp_dir();
  fs::create_symlink("loop", dir + "/loop");
  for (const char* verb : {"analyze", "report"}) {
    std::vector<std::string> args = {verb, dir + "/loop"};
    if (std::string(verb) == "report") args.insert(args.end(), {"-o", dir + "/r.html"});
    auto r = test::run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 1) << verb;
    EXPECT_NE(r.err.find(dir + "/loop: cannot open: Too many levels of symbolic links"), std::string::npos) << r.err;
    args[1] = dir;
    r = test::run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 1) << verb;
    EXPECT_NE(r.err.find(dir + ": no trace files in the directory (1 other files, first: loop (a link that cannot be "
                               "followed: Too many levels of symbolic links))"),
              std::string::npos)
        << r.err;
  }
}

TEST(TraceFormat, Rocprofv3IsToldByItsFirstKeyOnly) {
  EXPECT_EQ(sniff_head(" \n{ \"rocprofiler-sdk-tool\": []}"), TraceFormat::kRocprofv3Json);
  EXPECT_EQ(sniff_head("\xEF\xBB\xBF{\"rocprofiler-sdk-tool\": []}"), TraceFormat::kRocprofv3Json);
  EXPECT_EQ(sniff_head(R"({"schemaVersion": 1, "traceEvents": []})"), TraceFormat::kKinetoJson);
  EXPECT_EQ(sniff_head(R"({"traceEvents": [], "rocprofiler-sdk-tool": []})"), TraceFormat::kKinetoJson);
  EXPECT_EQ(sniff_head(R"({"other": 1, "rocprofiler-sdk-tool": []})"), TraceFormat::kOtherJson);
  EXPECT_EQ(sniff_head(R"([{"rocprofiler-sdk-tool": []}])"), TraceFormat::kKinetoJson);
  EXPECT_EQ(sniff_head("{\"rocprofiler-sdk-tool"), TraceFormat::kOtherJson);  // the key cut short
}

// issue 36 item 2: rocprofv3 JSON is read alike from a file given, gzip or xz, a directory and a pipe.
TEST(TraceFormat, Rocprofv3IsReadFromAFileADirectoryAndAPipe) {
  std::string dir = test::temp_dir(), traces = dir + "/traces";
  fs::create_directories(traces);
  const std::string fixture = test::data_path("rocprofv3/matrix_transpose_results.json");
  fs::copy_file(fixture, traces + "/results.json");
  std::ofstream(traces + "/bench.json") << R"({"schema": "cuprobe.bench/1", "results": []})";
  Profile file = load_profile(fixture);
  ASSERT_EQ(file.source, "rocprofv3");
  ASSERT_FALSE(file.gpu.empty());
  for (const char* tool : {"gzip", "xz"}) {
    std::string packed = compressed(traces + "/results.json", tool);
    EXPECT_EQ(sniff_trace_format(packed).format, TraceFormat::kRocprofv3Json) << tool;
    Profile p = load_profile(packed);
    EXPECT_EQ(p.source, "rocprofv3") << tool;
    EXPECT_EQ(p.gpu.size(), file.gpu.size()) << tool;
    fs::rename(packed, dir + "/" + fs::path(packed).filename().string());  // the directory holds one copy
  }

  std::vector<Profile> from_dir = load_profiles({traces});
  ASSERT_EQ(from_dir.size(), 1u);
  EXPECT_EQ(from_dir[0].source, "rocprofv3");
  EXPECT_EQ(from_dir[0].file, traces + "/results.json");
  EXPECT_EQ(from_dir[0].gpu.size(), file.gpu.size());
  EXPECT_EQ(from_dir[0].stats.get(ImportStat::kNotATraceFile).count, 1);  // bench.json only

  auto by_file = test::run_cuprobe({"analyze", "--json", fixture});
  ASSERT_EQ(by_file.exit_code, 0) << by_file.err;
  auto by_dir = test::run_cuprobe({"analyze", "--json", traces});
  ASSERT_EQ(by_dir.exit_code, 0) << by_dir.err;
  nlohmann::json expected = nlohmann::json::parse(by_file.out);
  ASSERT_EQ(expected["ranks"][0]["gpu_activities"], file.gpu.size());
  for (const std::string& path : {fixture, dir + "/results.json.gz", dir + "/results.json.xz"}) {
    std::ifstream in(path, std::ios::binary);
    auto piped =
        test::run_cuprobe({"analyze", "--json", "/dev/stdin"}, std::string(std::istreambuf_iterator<char>(in), {}));
    ASSERT_EQ(piped.exit_code, 0) << path << ": " << piped.err;
    nlohmann::json got = nlohmann::json::parse(piped.out);
    ASSERT_EQ(got["ranks"].size(), 1u) << path;
    EXPECT_EQ(got["ranks"][0]["gpu_activities"], expected["ranks"][0]["gpu_activities"]) << path;
    EXPECT_EQ(got["ranks"][0]["gpu_busy_ms"], expected["ranks"][0]["gpu_busy_ms"]) << path;
    EXPECT_EQ(got["ranks"][0]["kernels"], expected["ranks"][0]["kernels"]) << path;
    EXPECT_EQ(got["findings"], expected["findings"]) << path;
  }
  nlohmann::json listed = nlohmann::json::parse(by_dir.out);
  EXPECT_EQ(listed["ranks"][0]["gpu_busy_ms"], expected["ranks"][0]["gpu_busy_ms"]);
}

// 100,000 small files beside one trace: both verbs skip them, in seconds.
TEST(TraceFormat, ADirectoryOfAHundredThousandSmallFilesIsListedOnce) {
  std::string dir = test::temp_dir();
  fs::copy_file(test::data_path("tp2_mlp_decode_rank0.json.gz"), dir + "/rank0.json.gz");
  for (int i = 0; i < 100000; ++i) {
    std::ofstream(dir + "/f" + std::to_string(i) + ".txt") << "x";
  }
  for (const char* verb : {"analyze", "report"}) {
    std::vector<std::string> args = {verb, dir};
    if (std::string(verb) == "report") args.insert(args.end(), {"-o", test::temp_dir() + "/r.html"});
    auto start = std::chrono::steady_clock::now();
    auto r = test::run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 0) << verb << ": " << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60)) << verb;
  }
  std::vector<Profile> ps = load_profiles({dir});
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].stats.get(ImportStat::kNotATraceFile).count, 100000);
}

}  // namespace
}  // namespace cuprobe
