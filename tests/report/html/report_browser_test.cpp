// cuprobe report in a real browser: each kind of report opens in headless
// Chromium with no console message at all (errors, refused requests), and the
// page's self-check (#cuprobe-selfcheck, written by its script) lists the
// expected sections and charts. Skipped, with the reason, without chromium
// (scripts/setup.sh installs it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "store/run_file_schema.h"
#include "store/run_file_writer.h"
#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

using json = nlohmann::json;

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return {};
}

struct Opened {
  json check;                         // the page's self-check
  std::vector<std::string> messages;  // console messages Chromium logged
};

Opened open_page(const std::string& chromium, const std::string& html) {
  std::string profile = temp_dir();
  auto r = run_program(chromium, {"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
                                  "--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + html});
  Opened o;
  std::istringstream err(r.err);
  for (std::string line; std::getline(err, line);) {
    if (line.find(":CONSOLE") != std::string::npos) o.messages.push_back(line);
  }
  const std::string open = "<pre id=\"cuprobe-selfcheck\">";
  auto at = r.out.find(open);
  if (at == std::string::npos) return o;
  auto end = r.out.find("</pre>", at);
  std::string text = r.out.substr(at + open.size(), end - at - open.size());
  for (auto [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}}) {
    for (std::size_t p; (p = text.find(from)) != std::string::npos;) text.replace(p, from.size(), to);
  }
  o.check = json::parse(text, nullptr, false);
  return o;
}

class ReportBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    if (chromium_.empty()) GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs it)";
    dir_ = temp_dir();
  }

  // Makes the report, opens it, and checks what every report must hold.
  json report(const std::vector<std::string>& args) {
    std::string html = dir_ + "/report.html";
    std::vector<std::string> all{"report", "-o", html};
    all.insert(all.end(), args.begin(), args.end());
    auto r = run_cuprobe(all);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string page = slurp(html);
    // Nothing to fetch: no source attribute, style sheet import or url() (the CSP would refuse them
    // anyway, and Chromium would log the refusal as a console message).
    for (const char* fetch : {" src=", "@import", "url(", "<link"})
      EXPECT_EQ(page.find(fetch), std::string::npos) << fetch;
    EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
    Opened o = open_page(chromium_, html);
    EXPECT_TRUE(o.messages.empty()) << o.messages.front();
    EXPECT_TRUE(o.check.is_object()) << "no self-check in the page: its script did not run";
    if (!o.check.is_object()) return json::object();
    EXPECT_TRUE(o.check["errors"].empty()) << o.check["errors"].dump();
    EXPECT_EQ(o.check["svg_count"], o.check["drawn"]);
    EXPECT_LT(o.check["render_ms"].get<double>(), 2000.0);
    return o.check;
  }

  static std::vector<std::string> sections(const json& check) {
    return check.value("sections", std::vector<std::string>{});
  }
  static int charts(const json& check, const char* kind) { return check["charts"].value(kind, 0); }

  std::string chromium_, dir_;
};

TEST_F(ReportBrowser, Trace) {
  json c = report({data_path("mla_fp8pool_fullcast_small.json.gz")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"findings", "steps", "tables", "timeline"}));
  EXPECT_EQ(charts(c, "steps"), 1);
  EXPECT_EQ(charts(c, "timeline"), 2);  // typical and slowest step
}

TEST_F(ReportBrowser, SeveralRanks) {
  json c = report({data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"findings", "steps", "tables", "timeline", "ranks"}));
  EXPECT_EQ(charts(c, "steps"), 2);
  EXPECT_EQ(charts(c, "timeline"), 4);
  EXPECT_EQ(charts(c, "ranks"), 2);  // per step; collective wait in total
}

// A run file as `cuprobe record` writes it: 30 NVTX steps, each launching a GEMM and
// a copy, and two counters sampled every 0.5 ms.
void write_run_file(const std::string& path) {
  RunFileWriter w(path, false);
  RunDeviceRow dev;
  dev.id = 0;
  dev.name = "NVIDIA H200";
  w.add_device(dev);
  auto step = w.name_id("decode_step"), launch = w.name_id("cudaLaunchKernel");
  auto gemm = w.name_id("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT");
  auto copy = w.name_id("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>()");
  std::int64_t t = 1'000'000'000, correlation = 1;
  for (int s = 0; s < 30; ++s) {
    std::int64_t len = s == 17 ? 9'000'000 : 3'000'000;  // one slow step
    w.add_range({1, 1, t, t + len, step, "nvtx", -1});
    for (auto [name, offset, dur] :
         {std::tuple{gemm, 100'000LL, 600'000LL}, std::tuple{copy, 800'000LL, 1'400'000LL}}) {
      w.add_range({1, 1, t + offset - 50'000, t + offset - 40'000, launch, "runtime", correlation});
      RunKernelRow k;
      k.pid = 1;
      k.device = 0;
      k.stream = 7;
      k.start_ns = t + offset;
      k.end_ns = t + offset + dur;
      k.correlation = correlation++;
      k.name_id = name;
      w.add_kernel(k);
    }
    t += len;
  }
  for (std::int64_t at = 1'000'000'000; at < t; at += 500'000) {
    double phase = static_cast<double>((at / 500'000) % 6);
    w.add_sample(0, at, at + 500'000, "tensor_active_pct", phase < 2 ? 80 : 2);
    w.add_sample(0, at, at + 500'000, "dram_pct", phase < 2 ? 20 : 85);
  }
  w.finish(kRunStatusComplete);
}

TEST_F(ReportBrowser, RunFileWithCounters) {
  write_run_file(dir_ + "/run.cuprobe");
  json c = report({dir_ + "/run.cuprobe"});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"findings", "steps", "tables", "timeline", "counters"}));
  EXPECT_EQ(charts(c, "counters"), 2);  // one line per metric
  EXPECT_EQ(charts(c, "timeline"), 2);
}

TEST_F(ReportBrowser, BenchResultAndRequests) {
  StreamServerOptions options;
  options.itl_spread_us = 700;
  options.record_events = false;
  StreamServer server(options);
  auto b = run_cuprobe({"bench", server.url(), "-c", "4", "-n", "48", "--output-len", "24", "--json", "-q",
                        "--save-requests", dir_ + "/requests.jsonl"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  std::ofstream(dir_ + "/result.json") << b.out;
  json c = report({data_path("mla_fp8pool_fullcast_small.json.gz"), "--bench", dir_ + "/result.json", "--requests",
                   dir_ + "/requests.jsonl"});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"findings", "steps", "tables", "timeline", "bench"}));
  EXPECT_EQ(charts(c, "bench"), 5);  // TTFT, ITL, TPOT, E2E, tokens per second
}

TEST_F(ReportBrowser, Samples) {
  std::ofstream csv(dir_ + "/samples.csv");
  csv << "gpu,start_ns,end_ns,tensor_active_pct,dram_pct\n";
  for (int i = 0; i < 200; ++i) {
    std::int64_t at = 1'700'000'000'000'000'000LL + i * 10'000'000LL;
    csv << i % 2 << ',' << at << ',' << at + 10'000'000 << ',' << (i % 20 < 10 ? 91.5 : 0.5) << ','
        << (i % 7 == 0 ? "" : "40") << "\n";
  }
  csv.close();
  json c = report({data_path("mla_fp8pool_fullcast_small.json.gz"), "--samples", dir_ + "/samples.csv"});
  EXPECT_EQ(sections(c).back(), "samples");
  EXPECT_EQ(charts(c, "samples"), 4);  // 2 GPUs x 2 metrics
}

TEST_F(ReportBrowser, Baseline) {
  json c = report({data_path("mla_fp8pool_gathercast_small.json.gz"), "--baseline",
                   data_path("mla_fp8pool_fullcast_small.json.gz")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"findings", "steps", "tables", "timeline", "baseline"}));
  EXPECT_EQ(charts(c, "waterfall"), 1);
}

// Names that are not UTF-8, hold quotes, or no steps at all: still a page with no error.
TEST_F(ReportBrowser, HostileNamesAndNoSteps) {
  json c = report({data_path("hostile_fields.json.gz")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"findings", "tables"}));
  c = report({data_path("rocm_training_fallback_small.json")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"findings", "tables"}));
}

// The 346 MiB development trace: under 5 MB, summarised, and quick to open.
TEST_F(ReportBrowser, BigTraceStaysSmall) {
  std::string big = shared_trace("llama_bs4_decode_big.json.xz");
  if (big.empty()) GTEST_SKIP() << "../shared/traces/llama_bs4_decode_big.json.xz is not here";
  json c = report({big});
  EXPECT_LT(std::filesystem::file_size(dir_ + "/report.html"), 5u * 1000 * 1000);
  EXPECT_EQ(charts(c, "timeline"), 2);
}

}  // namespace
}  // namespace cuprobe::test
