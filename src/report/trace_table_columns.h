// The columns of the peers' first tables (analysis/trace_tables.h), each list
// read by the table's CSV (analyze_tables_csv), JSON (analyze_tables_json) and
// text (analyze_tables_text) writers: idle time by stream, launch delays,
// annotations, runtime API calls, copies, queue length.
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

}  // namespace cuprobe
