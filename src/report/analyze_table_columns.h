// The columns of analyze's own tables (analysis/analysis_result.h), each list
// read by the table's CSV (analyze_csv) and JSON (analyze_json) writers:
// categories, kernels, steps, overlap, findings, and HTA's communication
// overlap (analyze_tables_csv, analyze_tables_json). The CSV keeps its older
// order and a few columns of its own (table_columns.h: only()). The category
// and kernel lists are read by the text table too (analyze_text), in the text's
// own order (text_at).
#pragma once

#include <cstddef>
#include <string>

#include "analysis/analysis_result.h"
#include "report/table_columns.h"

namespace cuprobe {

// A kernel row with its unique name in the rank's table (report/kernel_display_names.h).
struct KernelTableRow {
  const KernelRow& kernel;
  std::string display_name;
};

// A step with its index and the rank's first step's CPU start (the CSV's start_ms counts from it).
struct StepTableRow {
  const Step& step;
  std::size_t index = 0;
  TimeNs origin = 0;
};

// A finding with its place in the ranking (the CSV's order, from 1; 0 where no table shows it).
struct FindingTableRow {
  const Finding& finding;
  int order = 0;
};

TableColumns<CategoryRow> category_columns();
TableColumns<KernelTableRow> kernel_columns();
TableColumns<StepTableRow> step_columns();  // the CSV's <category>_ms columns among them
TableColumns<FindingTableRow> finding_columns();
TableColumns<RankAnalysis> overlap_columns();  // analysis/category_overlap.h, with the rank's summed and busy time
TableColumns<HtaCommOverlap> hta_overlap_columns();

}  // namespace cuprobe
