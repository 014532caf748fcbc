#include "exporter/collectors_file.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

TEST(CollectorsFile, ReadsDcgmExportersDefaultFilesUnchanged) {
  CollectorsFile now = read_collectors_file(data_path("dcgm_exporter/default-counters.csv"));
  EXPECT_EQ(now.fields.size(), 26u) << "25 series and the driver version label";
  EXPECT_EQ(now.fields.front().name, "DCGM_FI_DEV_SM_CLOCK");
  EXPECT_EQ(now.fields.front().type, "gauge");
  EXPECT_EQ(now.fields.front().help, "SM clock frequency (in MHz).");
  EXPECT_TRUE(unknown_fields(now).empty());
  CollectorsFile old = read_collectors_file(data_path("dcgm_exporter/default-counters-00d6d344.csv"));
  EXPECT_EQ(old.fields.size(), 21u);
  EXPECT_EQ(unknown_fields(old),
            (std::vector<std::string>{"DCGM_FI_DEV_PCIE_TX_THROUGHPUT", "DCGM_FI_DEV_PCIE_RX_THROUGHPUT"}));
  bool trimmed = false;
  for (const auto& f : old.fields) trimmed |= f.name == "DCGM_FI_DEV_DEC_UTIL";  // "DCGM_FI_DEV_DEC_UTIL ,"
  EXPECT_TRUE(trimmed);
}

TEST(CollectorsFile, MalformedLinesNameFileAndLine) {
  for (const auto& [text, line] : std::vector<std::pair<std::string, std::string>>{
           {"# c\n\nDCGM_FI_DEV_GPU_UTIL, gauge\n", "f.csv:3:"},
           {", gauge, help\n", "f.csv:1:"},
           {"DCGM_FI_DEV_GPU_UTIL, gauge, ok\nDCGM_FI_DEV_FB_USED, meter, help\n", "f.csv:2:"}}) {
    try {
      parse_collectors_text(text, "f.csv");
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(line, 0), 0u) << e.what();
      EXPECT_EQ(e.exit_code(), 2);
    }
  }
}

TEST(CollectorsFile, SelectionChoosesDcgmSeriesOnly) {
  SeriesSelection all;
  EXPECT_TRUE(all.wants("DCGM_FI_DEV_FB_FREE"));
  EXPECT_TRUE(all.driver_version_label());
  SeriesSelection some(parse_collectors_text("DCGM_FI_DEV_FB_FREE, gauge, free\n", "f.csv"));
  EXPECT_TRUE(some.wants("DCGM_FI_DEV_FB_FREE"));
  EXPECT_FALSE(some.wants("DCGM_FI_DEV_FB_USED"));
  EXPECT_TRUE(some.wants("cuprobe_xid_errors_total"));
  EXPECT_FALSE(some.driver_version_label());
  EXPECT_THROW(read_collectors_file("/nonexistent/counters.csv"), Error);
}

}  // namespace
}  // namespace cuprobe::test
