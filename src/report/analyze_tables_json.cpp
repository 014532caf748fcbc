#include "report/analyze_tables_json.h"

#include "report/analyze_table_columns.h"
#include "report/trace_table_columns.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

// Every row of a table as JSON objects.
template <typename Row>
json rows_json(TableColumns<Row> columns, const std::vector<Row>& rows) {
  json out = json::array();
  for (const Row& r : rows) out.push_back(json_row(columns, r));
  return out;
}

json idle_json(const IdleBreakdown& idle) {
  json streams = rows_json(idle_columns(), idle.streams);
  json total = json_row(idle_columns(), idle.total);
  total.erase("device");
  total.erase("stream");
  return {{"kernel_wait_threshold_us", idle.kernel_wait_threshold_us},
          {"launches_known", idle.launches_known},
          {"total", std::move(total)},
          {"step_median_ms",
           {{"host_wait", idle.step_host_wait_median_ms},
            {"kernel_wait", idle.step_kernel_wait_median_ms},
            {"other", idle.step_other_median_ms}}},
          {"streams", std::move(streams)}};
}

json launches_json(const LaunchStats& l) {
  json kernels = rows_json(launch_columns(), l.kernels);
  return {{"runtime_events", l.all.launches > 0},
          {"cpu_cutoff_us", l.cpu_cutoff_us},
          {"delay_cutoff_us", l.delay_cutoff_us},
          {"all", json_row(launch_columns(), l.all)},
          {"kernels", std::move(kernels)}};
}

}  // namespace

json hta_window_json(const HtaWindowInfo& w) {
  return {{"window", w.keep_all ? "all" : "default"},
          {"last_step_left_out", w.cut},
          {"last_step", w.last_step},
          {"cut_at_ms", w.cut_at_ms},
          {"activities_left_out", w.activities_left_out},
          {"gpu_ms_left_out", w.gpu_ms_left_out}};
}

void add_trace_tables_json(json& rank, const RankAnalysis& a) {
  rank["hta_window"] = hta_window_json(a.hta_window);
  rank["idle_by_stream"] = idle_json(a.idle);
  rank["launch_stats"] = launches_json(a.launches);
  rank["annotations"] = rows_json(annotation_columns(), a.annotations);
  rank["api_summary"] = rows_json(api_columns(), a.api);
  rank["copies"] = rows_json(copy_columns(), a.copies);
  rank["queue_length"] = rows_json(queue_columns(), a.queues);
  rank["hta_overlap"] = json_row(hta_overlap_columns(), a.hta_overlap);
}

}  // namespace cuprobe
