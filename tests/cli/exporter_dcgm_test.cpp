// dcgm-exporter's default series: docs/exporter.md's table lists every series of
// dcgm-exporter's default counters file (tests/data/dcgm_exporter/), the table's
// types are the exporter's, and the exporter run with that file (fake NVML,
// synthetic counters) serves what the table says it serves, and nothing else
// under a DCGM name. Also -f's errors, XIDs and MIG labels end to end.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "collect/counters/counter_columns.h"
#include "common/prometheus_text.h"
#include "exporter/collectors_file.h"
#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

struct TableRow {
  std::string series, type, served;
};

std::string cell(const std::string& row, int index) {
  std::size_t at = 0;
  for (int i = 0; i <= index; ++i) at = row.find('|', at) + 1;
  std::string c = row.substr(at, row.find('|', at) - at);
  c.erase(0, c.find_first_not_of(" `"));
  c.erase(c.find_last_not_of(" `") + 1);
  return c;
}

std::vector<TableRow> docs_table() {
  std::ifstream in(std::string(CUPROBE_TEST_DATA_DIR) + "/../../docs/exporter.md");
  std::vector<TableRow> rows;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("dcgm-default-series: begin") != std::string::npos) inside = true;
    if (line.find("dcgm-default-series: end") != std::string::npos) break;
    if (!inside || !line.starts_with("| `")) continue;
    rows.push_back({cell(line, 0), cell(line, 1), cell(line, 4)});
  }
  return rows;
}

const CounterColumn* column_of_series(const std::string& series) {
  for (const CounterColumn& c : kCounterColumns) {
    if (c.series == series) return &c;
  }
  return nullptr;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string wait_for(int port, const std::vector<std::string>& parts) {
  std::string page;
  for (int i = 0; i < 200; ++i) {
    page = http_get(port, "/metrics");
    if (std::all_of(parts.begin(), parts.end(), [&](const std::string& p) { return contains(page, p); })) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return page;
}

TEST(DcgmDefaultSeries, DocsTableIsDcgmExportersDefaultFile) {
  CollectorsFile file = read_collectors_file(data_path("dcgm_exporter/default-counters.csv"));
  std::map<std::string, std::string> type_in_file;
  for (const auto& f : file.fields) {
    if (f.type != "label") type_in_file[f.name] = f.type;
  }
  std::vector<TableRow> table = docs_table();
  ASSERT_EQ(table.size(), 25u);
  ASSERT_EQ(type_in_file.size(), 25u);
  for (const TableRow& row : table) {
    ASSERT_TRUE(type_in_file.count(row.series)) << row.series << " is not in dcgm-exporter's default file";
    const CounterColumn* c = column_of_series(row.series);
    ASSERT_NE(c, nullptr) << row.series << " has no column in counter_columns.h";
    EXPECT_EQ(row.type, c->series_type) << row.series;
    // dcgm-exporter 4.x types NVLINK_BANDWIDTH_TOTAL a gauge (earlier files a counter): the table says so.
    if (row.series != "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL") {
      EXPECT_EQ(row.type, type_in_file[row.series]) << row.series;
    }
  }
}

TEST(DcgmDefaultSeries, ServedPageMatchesTheTable) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  std::string file = data_path("dcgm_exporter/default-counters.csv");
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "--listen", "127.0.0.1:" + std::to_string(port), "-f", file},
                             dir + "/exporter", fake_gpu_env());
  std::string page = wait_for(port, {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"0\"", "DCGM_FI_DEV_XID_ERRORS{gpu=\"1\"",
                                     "DCGM_FI_DEV_FB_FREE{gpu=\"0\""});
  PrometheusPage p = parse_prometheus_text(page, "/metrics");
  std::set<std::string> served;
  for (const auto& s : p.samples) {
    if (s.name.rfind("DCGM_", 0) != 0) continue;
    served.insert(s.name);
    ASSERT_TRUE(s.label("DCGM_FI_DRIVER_VERSION")) << s.name;
    EXPECT_EQ(*s.label("DCGM_FI_DRIVER_VERSION"), "999.99.fake");
  }
  std::set<std::string> listed;
  for (const TableRow& row : docs_table()) {
    listed.insert(row.series);
    EXPECT_EQ(served.count(row.series) != 0, row.served == "yes") << row.series << " (served: " << row.served << ")";
  }
  for (const auto& name : served) EXPECT_TRUE(listed.count(name)) << name << " served but not in the file";
  // FB free + used + reserved = total (141 GiB), and XID 0 without an XID.
  double fb = 0;
  for (const auto& s : p.samples) {
    bool gpu0 = s.label("gpu") && *s.label("gpu") == "0";
    if (gpu0 &&
        (s.name == "DCGM_FI_DEV_FB_FREE" || s.name == "DCGM_FI_DEV_FB_USED" || s.name == "DCGM_FI_DEV_FB_RESERVED")) {
      fb += s.value;
    }
    if (gpu0 && s.name == "DCGM_FI_DEV_XID_ERRORS") {
      EXPECT_EQ(s.value, 0);
    }
  }
  EXPECT_DOUBLE_EQ(fb, 141 * 1024);
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
  EXPECT_FALSE(contains(exporter.err(), "does not serve")) << exporter.err();
}

TEST(DcgmDefaultSeries, OlderDefaultFileWorksAndNamesWhatIsLeftOut) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  BackgroundProcess exporter(CUPROBE_BINARY,
                             {"exporter", "--listen", "127.0.0.1:" + std::to_string(port), "-f",
                              data_path("dcgm_exporter/default-counters-00d6d344.csv")},
                             dir + "/exporter", fake_gpu_env());
  std::string page = wait_for(port, {"DCGM_FI_DEV_FB_FREE{gpu=\"1\""});
  EXPECT_FALSE(contains(page, "DCGM_FI_DEV_FB_RESERVED")) << "not in that file";
  EXPECT_FALSE(contains(page, "DCGM_FI_PROF_")) << "not in that file";
  EXPECT_FALSE(contains(page, "DCGM_FI_DRIVER_VERSION=")) << "not in that file";
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
  EXPECT_TRUE(contains(exporter.err(),
                       "2 field(s) cuprobe does not serve, left out: DCGM_FI_DEV_PCIE_TX_THROUGHPUT, "
                       "DCGM_FI_DEV_PCIE_RX_THROUGHPUT"))
      << exporter.err();
}

TEST(DcgmDefaultSeries, MalformedCollectorsFileExitsTwoNamingTheLine) {
  std::string path = write_temp_file("bad.csv", "# ok\nDCGM_FI_DEV_GPU_UTIL, gauge, fine\nDCGM_FI_DEV_FB_USED gauge\n");
  auto r = run_cuprobe({"exporter", "--listen", "127.0.0.1:0", "-f", path});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, path + ":3: expected 'FIELD, type, help'")) << r.err;
}

// Issue 39: a counters file of many long unknown names gave a log line without bound; ten names, each cut.
// A private device given as the file is one line (it used to be read without end).
TEST(DcgmDefaultSeries, UnknownFieldsMakeOneShortLine) {
  std::string text = "DCGM_FI_DEV_GPU_UTIL, gauge, fine\n";
  for (int i = 0; i < 15; ++i) text += "DCGM_FI_NOT_" + std::to_string(i) + std::string(5000, 'X') + ", gauge, x\n";
  std::string dir = temp_dir();
  int port = free_tcp_port();
  BackgroundProcess exporter(
      CUPROBE_BINARY,
      {"exporter", "--listen", "127.0.0.1:" + std::to_string(port), "-f", write_temp_file("many.csv", text)},
      dir + "/exporter", fake_gpu_env());
  wait_for(port, {"DCGM_FI_DEV_GPU_UTIL{"});
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
  std::size_t at = exporter.err().find("15 field(s) cuprobe does not serve");
  ASSERT_NE(at, std::string::npos) << exporter.err().substr(0, 300);
  std::string line = exporter.err().substr(at, exporter.err().find('\n', at) - at);
  EXPECT_LT(line.size(), 1200u);
  EXPECT_TRUE(line.ends_with(", and 5 more")) << line.substr(line.size() - 40);
  std::string node = dir + "/zero";
  if (::mknod(node.c_str(), S_IFCHR | 0600, ::makedev(1, 5)) != 0) return;  // mknod not permitted here
  auto r = run_cuprobe({"exporter", "--listen", "127.0.0.1:0", "-f", node});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "collectors file " + node + ": a device, not a file")) << r.err;
}

TEST(DcgmDefaultSeries, XidsAndMigInstancesEndToEnd) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  auto env = fake_gpu_env();
  env.push_back("CUPROBE_FAKE_NVML_XID=1:79");
  env.push_back("CUPROBE_FAKE_NVML_MIG=0");
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "--listen", "127.0.0.1:" + std::to_string(port)},
                             dir + "/exporter", env);
  // NVML is read every second: the XID shows from the first read after the event came.
  std::string page = wait_for(port, {"DCGM_FI_DEV_XID_ERRORS{gpu=\"1\"", "GPU_I_ID=\"9\"", "} 79\n"});
  PrometheusPage p = parse_prometheus_text(page, "/metrics");
  std::map<std::string, double> xid, total;
  std::map<std::string, double> fb_free_of_instance;
  int gpu0_power = 0;
  for (const auto& s : p.samples) {
    std::string gpu = s.label("gpu") ? *s.label("gpu") : "";
    if (s.name == "DCGM_FI_DEV_XID_ERRORS" && !s.label("GPU_I_ID")) xid[gpu] = s.value;
    if (s.name == "cuprobe_xid_errors_total") total[gpu] = s.value;
    if (s.name == "DCGM_FI_DEV_FB_FREE" && s.label("GPU_I_ID")) {
      EXPECT_EQ(gpu, "0");
      fb_free_of_instance[*s.label("GPU_I_ID") + " " + *s.label("GPU_I_PROFILE")] = s.value;
    }
    if (s.name == "DCGM_FI_DEV_POWER_USAGE" && gpu == "0") {
      ++gpu0_power;
      EXPECT_FALSE(s.label("GPU_I_ID")) << "MIG on: the whole GPU's power once, never repeated per instance";
    }
    if (s.name == "DCGM_FI_DEV_FB_FREE" && gpu == "0") {
      EXPECT_TRUE(s.label("GPU_I_ID")) << "MIG on: memory per instance only (a sum must not count the GPU twice)";
    }
    if (s.name == "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE" && gpu == "0") {
      EXPECT_FALSE(s.label("GPU_I_ID")) << "PM counters are the whole GPU's: once, on the GPU";
    }
    // dcgm-exporter's labels on the last XID: err_code and the catalog's err_msg.
    if (s.name == "DCGM_FI_DEV_XID_ERRORS" && gpu == "1") {
      ASSERT_TRUE(s.label("err_code") && s.label("err_msg"));
      EXPECT_EQ(*s.label("err_code"), "79");
      EXPECT_EQ(*s.label("err_msg"), "GPU has fallen off the bus");
    }
    if (s.name == "DCGM_FI_DEV_XID_ERRORS" && gpu == "0") {
      EXPECT_EQ(*s.label("err_code"), "0");
      EXPECT_EQ(*s.label("err_msg"), "No Error");
    }
  }
  EXPECT_EQ(xid["1"], 79);
  EXPECT_EQ(total["1"], 1);
  EXPECT_EQ(total["0"], 0);
  EXPECT_EQ(gpu0_power, 1);
  ASSERT_EQ(fb_free_of_instance.size(), 2u) << page;
  EXPECT_DOUBLE_EQ(fb_free_of_instance["9 1g.18gb"], 18 * 1024 - 1024 - 256);
  EXPECT_DOUBLE_EQ(fb_free_of_instance["2 3g.71gb"], 71 * 1024 - 2048 - 256);
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
}

}  // namespace
}  // namespace cuprobe::test
