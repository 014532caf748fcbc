// cuprobe report in a real browser: each kind of report opens in headless
// Chromium with no console message at all (errors, refused requests), and the
// page's self-check (#cuprobe-selfcheck, written by its script) lists the
// expected sections and charts. Skipped, with the reason, without chromium
// (scripts/setup.sh installs it).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "common/units.h"
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

Opened open_page(const std::string& chromium, const std::string& html, int width = 1400) {
  std::string profile = temp_dir();
  auto r = run_program(chromium, {"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
                                  "--window-size=" + std::to_string(width) + ",1000", "--enable-logging=stderr",
                                  "--v=0", "--dump-dom", "file://" + html});
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
    // issue 35 item 8: nothing clipped, at a wide and at a narrow window (a chart's text inside the chart, a
    // headline tile's value inside its tile).
    EXPECT_TRUE(o.check["overflow"].empty()) << "at 1400 px: " << o.check["overflow"].dump();
    Opened narrow = open_page(chromium_, html, 760);
    EXPECT_TRUE(narrow.check.is_object());
    if (narrow.check.is_object()) {
      EXPECT_TRUE(narrow.check["overflow"].empty()) << "at 760 px: " << narrow.check["overflow"].dump();
    }
    return o.check;
  }

  // A closed loop of 4 against the test streaming server: result.json and requests.jsonl in dir_; the result,
  // or null when the bench failed.
  json bench_run() {
    StreamServerOptions options;
    options.itl_spread_us = 700;
    options.record_events = false;
    StreamServer server(options);
    auto b = run_cuprobe({"bench", server.url(), "-c", "4", "-n", "48", "--output-len", "24", "--json", "-q",
                          "--save-requests", dir_ + "/requests.jsonl", "--goodput", "ttft:1000", "e2e:5000",
                          "--server-metrics"});
    EXPECT_EQ(b.exit_code, 0) << b.err;
    if (b.exit_code != 0) return json();
    std::ofstream(dir_ + "/result.json") << b.out;
    return json::parse(b.out);
  }

  static std::vector<std::string> sections(const json& check) {
    return check.value("sections", std::vector<std::string>{});
  }
  static int charts(const json& check, const char* kind) { return check["charts"].value(kind, 0); }

  std::string chromium_, dir_;
};

TEST_F(ReportBrowser, Trace) {
  json c = report({data_path("mla_fp8pool_fullcast_small.json.gz")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "findings", "steps", "timeline", "tables"}));
  EXPECT_EQ(charts(c, "steps"), 1);
  EXPECT_EQ(charts(c, "timeline"), 2);  // typical and slowest step
  // issue 35 item 8: analyze's peers' tables under the kernel table.
  std::vector<std::string> tables = c.value("peer_tables", std::vector<std::string>{});
  for (const char* t : {"Idle time by cause", "Launch delays", "Queue length", "Annotations", "Runtime API"})
    EXPECT_NE(std::find(tables.begin(), tables.end(), t), tables.end()) << t << ": " << c["peer_tables"].dump();
}

// The headline and the cards read as analyze prints them: the same step time, GPU busy and tensor-core
// share, the top finding with its what-if, the kernels under their table row names (the full name on hover),
// the evidence in words.
TEST_F(ReportBrowser, HeadlineAndCardsSayWhatAnalyzeSays) {
  std::string trace = data_path("h200_pool_gather_expanded_index.json.gz");  // with shapes: projected
  auto text = run_cuprobe({"analyze", trace});
  auto js = run_cuprobe({"analyze", "--json", trace});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  json a = json::parse(js.out);
  json c = report({trace});
  std::map<std::string, std::string> figures;
  for (const auto& f : c["headline"]) figures[f["key"].get<std::string>()] = f["value"].get<std::string>();
  const json& steps = a["ranks"][0]["steps"];
  EXPECT_EQ(figures["step"], format_duration_ms(steps["median_ms"].get<double>()));
  EXPECT_NE(text.out.find("step time " + figures["step"] + " median"), std::string::npos) << text.out;
  EXPECT_EQ(figures["busy"], format_duration_ms(steps["gpu_median_ms"].get<double>()) + " per step");
  EXPECT_EQ(figures["tensor"], format_percent(a["ranks"][0]["tensor_core_share"].get<double>()));
  // "copy_cast_dominant: 7.02 ms → 0.26 ms per step (-96%)", and the same projection in analyze's text.
  const json& top = a["findings"][0];
  std::string line = c["top_finding"];
  EXPECT_EQ(
      line.rfind(top["id"].get<std::string>() + ": " + format_duration_ms(top["what_if"]["step_ms_now"].get<double>()) +
                     " \u2192 " + format_duration_ms(top["what_if"]["step_ms_after"].get<double>()) + " per step (-",
                 0),
      0u)
      << line;
  EXPECT_NE(text.out.find("what if: " + format_duration_ms(top["what_if"]["step_ms_now"].get<double>()) + " -> " +
                          format_duration_ms(top["what_if"]["step_ms_after"].get<double>()) + " (-"),
            std::string::npos);
  ASSERT_EQ(c["cards"].size(), a["findings"].size());
  std::map<std::string, std::string> row_names;
  for (const auto& k : a["ranks"][0]["kernels"])
    row_names[k["name"].get<std::string>()] = k["display_name"].get<std::string>();
  for (std::size_t i = 0; i < c["cards"].size(); ++i) {
    const json& card = c["cards"][i];
    const json& f = a["findings"][i];
    SCOPED_TRACE(f["id"].get<std::string>());
    EXPECT_EQ(card["id"], f["id"]);
    ASSERT_EQ(card["kernels"].size(), f["kernels"].size());
    for (std::size_t k = 0; k < f["kernels"].size(); ++k) {
      EXPECT_EQ(card["kernels"][k][1], f["kernels"][k]);  // the full name on hover
      EXPECT_EQ(card["kernels"][k][0], row_names.at(f["kernels"][k].get<std::string>()));
      EXPECT_LT(card["kernels"][k][0].get<std::string>().size(), 80u);
    }
    std::string evidence = card["evidence"];
    EXPECT_EQ(evidence.find(" = "), std::string::npos) << evidence;
    EXPECT_EQ(evidence.find('_'), std::string::npos) << evidence;
    EXPECT_EQ(card["what_if"].get<std::string>().rfind("what if: ", 0), 0u);
    EXPECT_NE(card["what_if"].get<std::string>().find(f["what_if"]["description"].get<std::string>()),
              std::string::npos);
  }
  EXPECT_NE(c["cards"][0]["what_if"].get<std::string>().find(" \u2192 "), std::string::npos);
  EXPECT_NE(c["cards"][0]["evidence"].get<std::string>().find(" per step; "), std::string::npos);
  EXPECT_NE(c["cards"][0]["evidence"].get<std::string>().find("of the memory bandwidth peak"), std::string::npos);
}

TEST_F(ReportBrowser, SeveralRanks) {
  json c = report({data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")});
  // The ranks side by side right under the headline, which has a row per rank.
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "ranks", "findings", "steps", "timeline", "tables"}));
  int steps_figures = 0;
  for (const auto& f : c["headline"]) steps_figures += f["key"] == "step" ? 1 : 0;
  EXPECT_EQ(steps_figures, 2);
  EXPECT_EQ(charts(c, "steps"), 2);
  EXPECT_EQ(charts(c, "timeline"), 4);
  EXPECT_EQ(charts(c, "ranks"), 2);  // per step; collective wait in total
  // The cross-rank table under the bars: the straggler named as analyze names it, a row per rank, the calls.
  EXPECT_NE(c.value("straggler", "").find("Straggler: rank 1, last at 64 calls"), std::string::npos) << c["straggler"];
  EXPECT_NE(c.value("straggler", "").find("GPU idle (host gaps)"), std::string::npos) << c["straggler"];
  EXPECT_EQ(c["cross_rank_rows"], json::array({2, 50}));
  // Matched by communicator (torch names the process group): the calls say on which, and among how many ranks.
  ASSERT_TRUE(c["cross_rank_calls_header"].is_array()) << c["cross_rank_calls_header"];
  EXPECT_EQ(c["cross_rank_calls_header"][1].get<std::string>().rfind("communicator", 0), 0u)
      << c["cross_rank_calls_header"];
  EXPECT_EQ(c["cross_rank_calls_first"], "pg 0 (default_pg) ranks [0, 1]");
}

// A run file as `cuprobe record` writes it: 30 NVTX steps, each launching a GEMM and
// a copy, and two counters sampled every 0.5 ms.
void write_run_file(const std::string& path, std::int64_t first_step_ns = 3'000'000) {
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
    std::int64_t len = s == 17 ? 9'000'000 : s == 0 ? first_step_ns : 3'000'000;  // one slow step
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
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "findings", "steps", "timeline", "tables", "counters"}));
  EXPECT_EQ(charts(c, "counters"), 2);  // one line per metric
  EXPECT_EQ(charts(c, "timeline"), 2);
  ASSERT_EQ(c["clipped"].size(), 1u);
  EXPECT_EQ(c["clipped"][0]["bars"], 0);  // a 3x step keeps the linear scale
}

// A warm-up step 50x longer than the others: the scale is cut so the others stay readable, and the cut bar
// carries its real time.
TEST_F(ReportBrowser, OneLongStepIsCutNotFlattening) {
  write_run_file(dir_ + "/run.cuprobe", 150'000'000);
  json c = report({dir_ + "/run.cuprobe"});
  ASSERT_EQ(c["clipped"].size(), 1u);
  EXPECT_EQ(c["clipped"][0]["bars"], 1);
  EXPECT_EQ(c["clipped"][0]["labels"], json::array({"\u2191 150 ms"}));
}

TEST_F(ReportBrowser, BenchResultAndRequests) {
  ASSERT_FALSE(bench_run().is_null());
  json c = report({data_path("mla_fp8pool_fullcast_small.json.gz"), "--bench", dir_ + "/result.json", "--requests",
                   dir_ + "/requests.jsonl"});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "findings", "steps", "timeline", "tables", "bench"}));
  EXPECT_EQ(charts(c, "bench"), 5);  // TTFT, ITL, TPOT, E2E, tokens per second
  EXPECT_EQ(charts(c, "requests"), 1);
}

// A bench result alone makes a page: the bench's figures at the top, then its latency and the requests over time.
TEST_F(ReportBrowser, BenchAlone) {
  json result = bench_run();
  ASSERT_FALSE(result.is_null());
  json c = report({"--bench", dir_ + "/result.json", "--requests", dir_ + "/requests.jsonl"});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "bench"}));
  EXPECT_EQ(charts(c, "bench"), 5);
  EXPECT_EQ(charts(c, "requests"), 1);
  std::map<std::string, std::string> figures;
  for (const auto& f : c["headline"]) figures[f["key"].get<std::string>()] = f["value"].get<std::string>();
  const json& w = result["steady"].contains("duration_s") ? result["steady"] : result["all"];
  EXPECT_EQ(figures["throughput"], fmt::format("{:.2f}", w["output_tokens_per_s"].get<double>()));
  EXPECT_EQ(figures["ttft"],
            fmt::format("{:.2f} ms / {:.2f} ms", w["ttft_ms"]["p50"].get<double>(), w["ttft_ms"]["p99"].get<double>()));
  EXPECT_EQ(figures["in_flight"], std::to_string(w["peak_concurrent_requests"].get<int>()));
  EXPECT_LE(std::stoi(figures["in_flight"]), 4);
  EXPECT_TRUE(figures.count("tpot") && figures.count("itl") && figures.count("steady"));
  EXPECT_TRUE(c["cards"].empty());
  // issue 35 item 8: goodput and the server's metrics on the page, as bench prints them.
  ASSERT_TRUE(w.contains("goodput"));
  EXPECT_EQ(figures["goodput"], fmt::format("{:.2f}", w["goodput"]["per_s"].get<double>()));
  std::vector<std::string> parts = c.value("bench_parts", std::vector<std::string>{});
  EXPECT_NE(std::find(parts.begin(), parts.end(), "Goodput"), parts.end()) << c["bench_parts"].dump();
  EXPECT_NE(std::find(parts.begin(), parts.end(), "Server metrics"), parts.end()) << c["bench_parts"].dump();

  c = report({"--bench", dir_ + "/result.json"});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "bench"}));
  // Neither traces nor a bench result: bad usage.
  EXPECT_EQ(run_cuprobe({"report", "-o", dir_ + "/none.html"}).exit_code, 2);
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
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "findings", "steps", "timeline", "tables", "baseline"}));
  EXPECT_EQ(charts(c, "waterfall"), 1);
}

// issue 35: the baseline section shows HTA's communication overlap per rank as `cuprobe diff` does (its JSON).
TEST_F(ReportBrowser, BaselineCarriesHtasCommunicationOverlap) {
  std::string pair = data_path("tp2_mlp_decode_rank0.json.gz") + "," + data_path("tp2_mlp_decode_rank1.json.gz");
  json c = report(
      {data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz"), "--baseline", pair});
  auto parts = c.value("baseline_parts", std::vector<std::string>{});
  EXPECT_NE(std::find(parts.begin(), parts.end(), "Communication beside computation"), parts.end()) << c.dump();
  EXPECT_TRUE(c["overflow"].empty()) << c["overflow"].dump();
  auto diffed = run_cuprobe({"diff", "--json", pair, pair});
  ASSERT_EQ(diffed.exit_code, 0) << diffed.err;
  std::string page = slurp(dir_ + "/report.html");
  const std::string open = "id=\"cuprobe-data\">";
  auto at = page.find(open);
  ASSERT_NE(at, std::string::npos);
  json data = json::parse(page.substr(at + open.size(), page.find("</script>", at) - at - open.size()));
  EXPECT_EQ(data["baseline"]["hta_overlap"], json::parse(diffed.out)["hta_overlap"]);
  EXPECT_EQ(data["baseline"]["hta_overlap"].size(), 2u);
}

// Names that are not UTF-8, hold quotes, or no steps at all: still a page with no error.
TEST_F(ReportBrowser, HostileNamesAndNoSteps) {
  json c = report({data_path("hostile_fields.json.gz")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "findings", "tables"}));
  c = report({data_path("rocm_training_fallback_small.json")});
  EXPECT_EQ(sections(c), (std::vector<std::string>{"headline", "findings", "tables"}));
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
