// The columns of the peers' first tables (analysis/trace_tables.h), each list
// read by the table's CSV (analyze_tables_csv), JSON (analyze_tables_json) and
// text (analyze_tables_text) writers: idle time by stream, launch delays,
// annotations, runtime API calls, copies, queue length, HTA's communication
// overlap (also read by diff's writers).
#pragma once

#include "analysis/trace_tables.h"
#include "report/table_columns.h"

namespace cuprobe {

TableColumns<StreamIdle> idle_columns();
TableColumns<LaunchRow> launch_columns();
TableColumns<AnnotationRow> annotation_columns();
TableColumns<ApiRow> api_columns();
TableColumns<CopyRow> copy_columns();
TableColumns<QueueRow> queue_columns();
TableColumns<HtaCommOverlap> hta_overlap_columns();  // JSON and CSV only: the text is a sentence

}  // namespace cuprobe
