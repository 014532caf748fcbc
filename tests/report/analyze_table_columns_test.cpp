// analyze's own tables from one column list each: the CSV and the JSON keep their own
// orders and columns, keys a row does not have are left out of its JSON, and the
// text table's columns are some of the list's, in their own order (text_at).
#include "report/analyze_table_columns.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/kernel_taxonomy.h"

namespace cuprobe {
namespace {

std::vector<std::string> keys(const nlohmann::ordered_json& j) {
  std::vector<std::string> out;
  for (const auto& [k, v] : j.items()) out.push_back(k);
  return out;
}

std::size_t at(const std::vector<std::string>& list, const std::string& name) {
  return static_cast<std::size_t>(std::find(list.begin(), list.end(), name) - list.begin());
}

TEST(AnalyzeTableColumns, KernelBusyRatioEndsTheCsvRowButFollowsSummedShareInJson) {
  KernelRow k;
  k.name = "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT";
  k.tensor_core = true;
  k.busy_ratio = 0.25;
  KernelTableRow row{k, "nvjet"};
  std::vector<std::string> header = csv_header(kernel_columns(), {"rank"});
  EXPECT_EQ(header.back(), "busy_ratio");
  EXPECT_EQ(std::count(header.begin(), header.end(), "busy_ratio"), 1);
  EXPECT_EQ(header[1], "kernel");                      // the JSON's "name"
  EXPECT_EQ(at(header, "decided_by"), header.size());  // JSON only
  EXPECT_EQ(at(header, "bytes"), header.size());
  std::vector<std::string> cells = csv_row(kernel_columns(), row, {"0"});
  EXPECT_EQ(cells[at(header, "tensor_core")], "yes");
  EXPECT_EQ(cells.back(), "0.25");

  nlohmann::ordered_json j = json_row(kernel_columns(), row);
  std::vector<std::string> names = keys(j);
  EXPECT_EQ(at(names, "busy_ratio"), at(names, "summed_share") + 1);
  EXPECT_EQ(j["tensor_core"], true);
  EXPECT_EQ(j["decided_by"], "unknown");
  EXPECT_TRUE(j["bytes"].is_null());
  EXPECT_FALSE(j.contains("work_calls"));  // left out without work, as before
  EXPECT_FALSE(j.contains("work_source"));

  k.work = KernelWork{};
  k.work->calls = 3;
  k.work->source = "shapes";
  nlohmann::ordered_json with_work = json_row(kernel_columns(), KernelTableRow{k, "nvjet"});
  EXPECT_EQ(with_work["work_calls"], 3);
  EXPECT_EQ(with_work["work_source"], "shapes");
  EXPECT_TRUE(with_work["work_dtype"].is_null());
  EXPECT_EQ(at(keys(with_work), "work_calls"), at(keys(with_work), "bound") + 1);
}

TEST(AnalyzeTableColumns, StepCsvHasACategoryColumnEachAndItsOwnOrder) {
  Step st;
  st.kind = "decode";
  st.cpu_start = 5'000'000;
  st.cpu_end = 7'000'000;
  st.gpu_busy = 1'500'000;
  st.outlier = true;
  st.category_ns[static_cast<std::size_t>(Category::kGemm)] = 250'000;
  StepTableRow row{st, 2, 1'000'000};
  std::vector<std::string> header = csv_header(step_columns(), {"rank"});
  ASSERT_EQ(header.size(), 1u + 13u + static_cast<std::size_t>(kCategoryCount));
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + 8),
            (std::vector<std::string>{"rank", "step", "kind", "start_ms", "step_ms", "gpu_span_ms", "gpu_busy_ms",
                                      "activities"}));
  EXPECT_EQ(header[8], std::string(category_name(static_cast<Category>(0))) + "_ms");
  EXPECT_EQ(header[8 + static_cast<std::size_t>(kCategoryCount)], "cpu_ms");
  std::vector<std::string> cells = csv_row(step_columns(), row, {"0"});
  EXPECT_EQ(cells[at(header, "step")], "2");
  EXPECT_EQ(cells[at(header, "start_ms")], "4");  // from the first step's CPU start
  EXPECT_EQ(cells[at(header, "gemm_ms")], "0.25");
  EXPECT_EQ(cells[at(header, "outlier")], "1");

  nlohmann::ordered_json j = json_row(step_columns(), row);
  EXPECT_EQ(keys(j), (std::vector<std::string>{"kind", "time_ms", "gpu_start_ns", "cpu_ms", "gpu_ms", "gpu_span_ms",
                                               "activities", "start_ns", "outlier", "comm_ms", "comm_overlapped_ms",
                                               "copy_ms", "copy_overlapped_ms"}));
  EXPECT_EQ(j["outlier"], true);
  EXPECT_EQ(j["gpu_ms"], 1.5);
}

TEST(AnalyzeTableColumns, FindingKernelsAreLinesInCsvAndAListInJson) {
  Finding f;
  f.id = "copy_cast_dominant";
  f.rank = 1;
  f.kernels = {"a", "b"};
  std::vector<std::string> header = csv_header(finding_columns(), {});
  EXPECT_EQ(header, (std::vector<std::string>{"order", "rank", "id", "severity", "share", "step_share", "title",
                                              "kernels", "suggestion"}));
  std::vector<std::string> cells = csv_row(finding_columns(), FindingTableRow{f, 4}, {});
  EXPECT_EQ(cells[0], "4");
  EXPECT_EQ(cells[1], "1");
  EXPECT_EQ(cells[7], "a\nb");

  nlohmann::ordered_json j = json_row(finding_columns(), FindingTableRow{f});
  EXPECT_EQ(keys(j), (std::vector<std::string>{"id", "severity", "share", "step_share", "rank", "title", "suggestion",
                                               "kernels", "numbers", "what_if"}));  // no sources: none known
  EXPECT_EQ(j["kernels"], nlohmann::ordered_json({"a", "b"}));
  f.sources.push_back(SourceLine{});
  EXPECT_TRUE(json_row(finding_columns(), FindingTableRow{f}).contains("sources"));
}

TEST(AnalyzeTableColumns, HtaOverlapShareIsEmptyWithoutCommunication) {
  HtaCommOverlap o;
  o.computation_ms = 2;
  std::vector<std::string> header = csv_header(hta_overlap_columns(), {});
  std::vector<std::string> cells = csv_row(hta_overlap_columns(), o, {});
  EXPECT_EQ(cells[at(header, "comp_comm_overlap_pctg")], "");
  EXPECT_TRUE(json_row(hta_overlap_columns(), o)["comp_comm_overlap_pctg"].is_null());
  o.communication_kernels = 1;
  o.comp_comm_overlap_pctg = 50;
  EXPECT_EQ(json_row(hta_overlap_columns(), o)["comp_comm_overlap_pctg"], 50.0);
}

TEST(AnalyzeTableColumns, CategoryTextTableIsItsColumnsWithATextHeaderInTextOrder) {
  EXPECT_EQ(text_headers(category_columns()),
            (std::vector<std::string>{"category", ">time", ">share", ">per step", ">calls"}));
  EXPECT_EQ(text_headers(category_columns(), "per_step_ms"),
            (std::vector<std::string>{"category", ">time", ">share", ">calls"}));
  CategoryRow c{Category::kGemm, 2.5};
  c.share = c.summed_share = 0.25;
  c.calls = 7;
  EXPECT_EQ(text_cells(category_columns(), c), (std::vector<std::string>{"gemm", "2.50 ms", "25%", "-", "7"}));
  // Each text column shows the value of the JSON key (and CSV column) of its name.
  std::vector<std::string> names;
  for (const auto* column : text_columns(category_columns())) names.push_back(column->name);
  EXPECT_EQ(names, (std::vector<std::string>{"category", "time_ms", "share", "per_step_ms", "calls"}));
  nlohmann::ordered_json j = json_row(category_columns(), c);
  for (const std::string& name : names) EXPECT_TRUE(j.contains(name)) << name;
}

TEST(AnalyzeTableColumns, KernelTextTableShowsTheDisplayNameInItsOwnOrder) {
  KernelRow k;
  k.name = "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT";
  k.category = Category::kGemm;
  k.decided_by = CategorySource::kLaunchOp;
  k.calls = 4;
  k.time_ms = 0.02;
  k.mean_us = 5;
  k.median_us = 4.5;
  k.max_us = 7;
  k.share = k.summed_share = 0.5;
  KernelTableRow row{k, "nvjet"};
  EXPECT_EQ(text_headers(kernel_columns()), (std::vector<std::string>{"kernel", ">calls", ">total", ">mean", ">median",
                                                                      ">max", ">share", "category", "TC", "prec"}));
  EXPECT_EQ(text_cells(kernel_columns(), row), (std::vector<std::string>{"nvjet", "4", "20.0 us", "5.0 us", "4.5 us",
                                                                         "7.0 us", "50%", "gemm (op)", "?", "-"}));
  std::vector<std::string> names;
  for (const auto* column : text_columns(kernel_columns())) names.push_back(column->name);
  EXPECT_EQ(names, (std::vector<std::string>{"display_name", "calls", "time_ms", "mean_us", "median_us", "max_us",
                                             "share", "category", "tensor_core", "precision"}));
  nlohmann::ordered_json j = json_row(kernel_columns(), row);
  for (const std::string& name : names) EXPECT_TRUE(j.contains(name)) << name;
  EXPECT_EQ(j["display_name"], "nvjet");
}

}  // namespace
}  // namespace cuprobe
