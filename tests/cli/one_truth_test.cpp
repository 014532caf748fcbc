// One truth per number: every verb run on every bundled trace (tests/data and
// ../shared/traces), and every figure that two outputs show checked equal —
// analyze's text, --json and --csv, the report page's data, and diff of a
// trace with itself. JSON carries full precision, CSV 9 significant digits,
// the page 4 (round4), the text its formatted form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/units.h"
#include "support/read_csv.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

using json = nlohmann::json;

double round4(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return std::strtod(buf, nullptr);
}

double csv9(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return std::strtod(buf, nullptr);
}

json page_data(const std::string& page) {
  const std::string open = "id=\"cuprobe-data\">";
  auto at = page.find(open);
  if (at == std::string::npos) return {};
  auto end = page.find("</script>", at);
  return json::parse(page.substr(at + open.size(), end - at - open.size()));
}

// One bundled input: its files (one per rank) and a test name.
struct Input {
  std::vector<std::string> files;
  std::string name;
};

// The bundled traces cuprobe reads as they are (the .sql fixtures need building first), one input
// per file, and the two TP ranks together. A file of ../shared/traces that tests/data holds too (the
// same name and size: a copy) is checked once. Large files are left out of sanitizer builds. Every
// test process lists them (the tests are instantiated from the list), so the list reads no file.
std::vector<Input> inputs() {
  std::uintmax_t limit = 64ull << 20;
#if defined(__SANITIZE_ADDRESS__)
  limit = 4ull << 20;
#endif
  std::vector<Input> out;
  std::set<std::pair<std::string, std::uintmax_t>> seen;  // names and sizes listed
  for (const std::string& dir : {std::string(CUPROBE_TEST_DATA_DIR), std::string(CUPROBE_SHARED_TRACES_DIR)}) {
    std::error_code ec;
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = e.path().filename().string();
      bool trace = name.ends_with(".json") || name.ends_with(".json.gz") || name.ends_with(".json.xz");
      if (e.is_regular_file() && trace && e.file_size() <= limit && seen.insert({name, e.file_size()}).second)
        files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string name = (dir == CUPROBE_TEST_DATA_DIR ? "" : "shared_") + std::filesystem::path(f).filename().string();
      for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      out.push_back({{f}, name});
    }
  }
  out.push_back(
      {{CUPROBE_TEST_DATA_DIR "/tp2_mlp_decode_rank0.json.gz", CUPROBE_TEST_DATA_DIR "/tp2_mlp_decode_rank1.json.gz"},
       "tp2_both_ranks"});
  return out;
}

std::string joined(const std::vector<std::string>& files) {
  std::string s;
  for (const auto& f : files) s += (s.empty() ? "" : ",") + f;
  return s;
}

// The text line of a table row: starts (after indentation) with `name`.
bool has_row(const std::string& text, const std::string& name, const std::vector<std::string>& cells) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::size_t at = line.find_first_not_of(' ');
    if (at == std::string::npos || line.compare(at, name.size(), name) != 0) continue;
    if (at + name.size() < line.size() && line[at + name.size()] != ' ') continue;
    bool all = true;
    for (const auto& c : cells) all = all && line.find(" " + c) != std::string::npos;
    if (all) return true;
  }
  return false;
}

void check_one(const std::vector<std::string>& files) {
  SCOPED_TRACE(joined(files));
  std::string dir = temp_dir();
  std::vector<std::string> args{"analyze", "--json", "--csv", dir + "/csv", "--top", "20"};
  args.insert(args.end(), files.begin(), files.end());
  auto j = run_cuprobe(args);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  json a = json::parse(j.out);
  args = {"analyze", "--top", "20"};
  args.insert(args.end(), files.begin(), files.end());
  auto t = run_cuprobe(args);
  ASSERT_EQ(t.exit_code, 0) << t.err;
  args = {"report", "-o", dir + "/r.html"};
  args.insert(args.end(), files.begin(), files.end());
  auto r = run_cuprobe(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json page = page_data(slurp(dir + "/r.html"));
  auto d = run_cuprobe({"diff", "--json", joined(files), joined(files)});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  json diff = json::parse(d.out);

  auto categories = read_csv(dir + "/csv/categories.csv");
  auto kernels = read_csv(dir + "/csv/kernels.csv");
  auto steps = read_csv(dir + "/csv/steps.csv");
  auto overlap = read_csv(dir + "/csv/overlap.csv");
  ASSERT_EQ(page["ranks"].size(), a["ranks"].size());
  ASSERT_EQ(overlap.size(), a["ranks"].size());

  double gpu_sum = 0, wall_sum = 0;
  bool all_steps = true;
  std::size_t step_row = 0, category_row = 0, kernel_row = 0;
  for (std::size_t i = 0; i < a["ranks"].size(); ++i) {
    const json& ra = a["ranks"][i];
    const json& rp = page["ranks"][i];
    SCOPED_TRACE("rank " + std::to_string(i));
    // Window and GPU busy.
    EXPECT_EQ(rp["gpu_busy_ms"].get<double>(), round4(ra["gpu_busy_ms"].get<double>()));
    EXPECT_EQ(rp["window_ms"].get<double>(), round4(ra["window_ms"].get<double>()));
    EXPECT_NE(t.out.find("GPU busy " + format_duration_ms(ra["gpu_busy_ms"].get<double>()) + " (" +
                         format_percent(ra["gpu_busy_share"].get<double>()) + ")"),
              std::string::npos);
    // Steps: the step time on the GPU clock, per step and its median, in every output.
    const json& sa = ra["steps"];
    const json& sp = rp["steps"];
    ASSERT_EQ(sp["count"], sa["count"]);
    EXPECT_EQ(sp["median_ms"].get<double>(), round4(sa["median_ms"].get<double>()));
    EXPECT_EQ(rp["busy_per_step_ms"].get<double>(), round4(sa["gpu_median_ms"].get<double>()));
    EXPECT_EQ(sp["typical_step"], sa["typical_step"]);
    EXPECT_EQ(sp["slowest_step"], sa["slowest_step"]);
    if (sa["count"].get<int>() > 0) {
      EXPECT_NE(t.out.find("step time " + format_duration_ms(sa["median_ms"].get<double>()) + " median, " +
                           format_duration_ms(sa["p90_ms"].get<double>()) + " p90"),
                std::string::npos);
      EXPECT_NE(t.out.find("GPU busy " + format_duration_ms(sa["gpu_median_ms"].get<double>()) + " median"),
                std::string::npos);
      // The page draws analyze's typical and slowest steps, labelled with their step time.
      const json& tl = rp["timelines"];
      if (!sa["typical_step"].is_null()) {
        ASSERT_GE(tl.size(), 1u);
        std::size_t typical = sa["typical_step"].get<std::size_t>();
        EXPECT_EQ(tl[0]["step"].get<std::size_t>(), typical);
        EXPECT_NE(
            tl[0]["label"].get<std::string>().find(format_duration_ms(sa["list"][typical]["time_ms"].get<double>())),
            std::string::npos);
      }
    }
    for (std::size_t s = 0; s < sa["list"].size(); ++s, ++step_row) {
      const json& st = sa["list"][s];
      ASSERT_LT(step_row, steps.size());
      const auto& row = steps[step_row];
      EXPECT_EQ(sp["step_ms"][s].get<double>(), round4(st["time_ms"].get<double>()));
      EXPECT_EQ(sp["busy_ms"][s].get<double>(), round4(st["gpu_ms"].get<double>()));
      EXPECT_EQ(sp["outlier"][s].get<int>(), st["outlier"].get<bool>() ? 1 : 0);
      EXPECT_EQ(std::stod(row.at("step_ms")), csv9(st["time_ms"].get<double>()));
      EXPECT_EQ(std::stod(row.at("gpu_busy_ms")), csv9(st["gpu_ms"].get<double>()));
      EXPECT_EQ(std::stod(row.at("comm_ms")), csv9(st["comm_ms"].get<double>()));
      EXPECT_EQ(row.at("outlier"), st["outlier"].get<bool>() ? "1" : "0");
    }
    // Categories: time and the shares that add up to 100%.
    double summed = 0;
    for (std::size_t c = 0; c < ra["categories"].size(); ++c, ++category_row) {
      const json& ca = ra["categories"][c];
      const json& cp = rp["categories"][c];
      summed += ca["summed_share"].get<double>();
      EXPECT_EQ(cp["category"], ca["category"]);
      EXPECT_EQ(cp["time_ms"].get<double>(), round4(ca["time_ms"].get<double>()));
      EXPECT_EQ(cp["summed_share"].get<double>(), round4(ca["summed_share"].get<double>()));
      const auto& row = categories[category_row];
      EXPECT_EQ(row.at("category"), ca["category"].get<std::string>());
      EXPECT_EQ(std::stod(row.at("time_ms")), csv9(ca["time_ms"].get<double>()));
      EXPECT_EQ(std::stod(row.at("summed_share")), csv9(ca["summed_share"].get<double>()));
      EXPECT_TRUE(
          has_row(t.out, ca["category"].get<std::string>(),
                  {format_duration_ms(ca["time_ms"].get<double>()), format_percent(ca["summed_share"].get<double>())}))
          << ca["category"];
    }
    if (!ra["categories"].empty()) {
      EXPECT_NEAR(summed, 1.0, 1e-9);
    }
    // Overlap of communication and copies with compute.
    const json& oa = ra["overlap"];
    EXPECT_EQ(rp["overlap"], oa);
    const auto& orow = overlap[i];
    for (const char* key :
         {"comm_ms", "comm_overlapped_ms", "comm_overlapped_share", "copy_ms", "copy_overlapped_share"})
      EXPECT_EQ(std::stod(orow.at(key)), csv9(oa[key].get<double>())) << key;
    if (oa["comm_ms"].get<double>() > 0) {
      EXPECT_NE(t.out.find("communication " + format_duration_ms(oa["comm_ms"].get<double>()) + ", " +
                           format_percent(oa["comm_overlapped_share"].get<double>()) + " of it beside compute"),
                std::string::npos);
    }
    // Kernels: matched by full name; the row names unique and the same in the text, JSON, CSV and page.
    std::size_t csv_first = kernel_row;
    kernel_row += ra["kernels_total"].get<std::size_t>();
    std::set<std::string> shown_names;
    for (std::size_t k = 0; k < ra["kernels"].size(); ++k) {
      const json& ka = ra["kernels"][k];
      const json& kp = rp["kernels"][k];
      EXPECT_EQ(kp["name"], ka["name"]);
      EXPECT_EQ(kp["display_name"], ka["display_name"]);
      EXPECT_EQ(kp["time_ms"].get<double>(), round4(ka["time_ms"].get<double>()));
      EXPECT_EQ(kp["summed_share"].get<double>(), round4(ka["summed_share"].get<double>()));
      const auto& row = kernels[csv_first + k];
      EXPECT_EQ(row.at("kernel"), ka["name"].get<std::string>());
      EXPECT_EQ(row.at("display_name"), ka["display_name"].get<std::string>());
      EXPECT_EQ(std::stod(row.at("time_ms")), csv9(ka["time_ms"].get<double>()));
      EXPECT_TRUE(shown_names.insert(ka["display_name"].get<std::string>()).second) << ka["display_name"];
      if (k >= 20) continue;  // the text's --top 20 (JSON has every kernel)
      EXPECT_TRUE(
          has_row(t.out, ka["display_name"].get<std::string>(),
                  {std::to_string(ka["calls"].get<long long>()), format_duration_ms(ka["time_ms"].get<double>()),
                   format_percent(ka["summed_share"].get<double>())}))
          << ka["display_name"];
    }
    bool has_steps = sa["count"].get<int>() > 0;
    all_steps = all_steps && has_steps;
    gpu_sum += has_steps ? sa["gpu_median_ms"].get<double>() : ra["gpu_busy_ms"].get<double>();
    wall_sum += has_steps ? sa["median_ms"].get<double>() : ra["window_ms"].get<double>();
  }
  // The page's headline and cards: analyze's figures in analyze's words, kernels under their row names.
  ASSERT_EQ(page["headline"]["ranks"].size(), a["ranks"].size());
  for (std::size_t i = 0; i < a["ranks"].size(); ++i) {
    const json& sa = a["ranks"][i]["steps"];
    std::map<std::string, std::string> figures;
    for (const auto& f : page["headline"]["ranks"][i]["figures"])
      figures[f["key"].get<std::string>()] = f["value"].get<std::string>();
    ASSERT_TRUE(figures.count("tensor") && figures.count("step") && figures.count("busy"));
    if (sa["count"].get<int>() > 0) {
      EXPECT_EQ(figures["step"], format_duration_ms(sa["median_ms"].get<double>()));
      EXPECT_EQ(figures["busy"], format_duration_ms(sa["gpu_median_ms"].get<double>()) + " per step");
      if (!sa["slowest_step"].is_null()) {
        EXPECT_EQ(figures["slowest"],
                  format_duration_ms(sa["list"][sa["slowest_step"].get<std::size_t>()]["time_ms"].get<double>()));
      }
    }
  }
  ASSERT_EQ(page["findings"].size(), a["findings"].size());
  for (std::size_t i = 0; i < a["findings"].size(); ++i) {
    const json& fa = a["findings"][i];
    const json& fp = page["findings"][i];
    EXPECT_EQ(fp["id"], fa["id"]);
    EXPECT_EQ(fp["evidence"].size(), fa["numbers"].size());
    for (const auto& words : fp["evidence"]) {
      EXPECT_EQ(words.get<std::string>().find('_'), std::string::npos) << fa["id"] << ": no words for " << words;
    }
    std::map<std::string, std::string> row_names;
    for (const auto& rank : a["ranks"]) {
      if (a["ranks"].size() > 1 && rank["rank"] != fa["rank"]) continue;
      for (const auto& k : rank["kernels"])
        row_names[k["name"].get<std::string>()] = k["display_name"].get<std::string>();
    }
    for (const auto& k : fp["kernels_shown"]) {
      auto row = row_names.find(k["name"].get<std::string>());
      if (row != row_names.end()) {
        EXPECT_EQ(k["short"], row->second);
      }
    }
  }
  if (!a["findings"].empty()) {
    EXPECT_EQ(page["headline"]["top_finding"]["id"], a["findings"][0]["id"]);
  }
  // diff of the input with itself: the same per-step figures as analyze, nothing moved, every finding kept.
  if (all_steps) {
    double n = static_cast<double>(a["ranks"].size());
    EXPECT_NEAR(diff["step_ms"]["a"].get<double>(), gpu_sum / n, 1e-9);
    EXPECT_NEAR(diff["step_wall_ms"]["a"].get<double>(), wall_sum / n, 1e-9);
  }
  EXPECT_EQ(diff["step_ms"]["a"], diff["step_ms"]["b"]);
  EXPECT_EQ(diff["pairing"]["how"], a["ranks"].size() > 1 ? "by rank id" : "one with one");
  if (diff["step_ms"]["a"].get<double>() > 0) {
    EXPECT_EQ(diff["step_ms"]["change"], "same");
  }
  EXPECT_TRUE(diff["findings"]["appeared"].empty());
  EXPECT_TRUE(diff["findings"]["disappeared"].empty());
  EXPECT_EQ(diff["findings"]["kept"].size(), a["findings"].size());
}

// One test per input (OneTruth.<file name>), so that ctest spreads them over its jobs; registered
// before main runs them, under plain names (a parameterized test's would carry its parameter).
class OneTruth : public ::testing::Test {
 public:
  explicit OneTruth(std::vector<std::string> files) : files_(std::move(files)) {}
  void TestBody() override { check_one(files_); }

 private:
  std::vector<std::string> files_;
};

const bool kRegistered = [] {
  for (const Input& input : inputs()) {
    ::testing::RegisterTest("OneTruth", input.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [files = input.files]() -> ::testing::Test* { return new OneTruth(files); });
  }
  return true;
}();

TEST(OneTruthInputs, AreTheBundledTraces) { EXPECT_GE(inputs().size(), 10u); }

}  // namespace
}  // namespace cuprobe::test
