#include "report/analyze_tables_json.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

json stream_idle_json(const StreamIdle& s) {
  return {{"device", s.device},
          {"stream", s.stream},
          {"gaps", s.gaps},
          {"host_wait_ms", s.host_wait_ms},
          {"kernel_wait_ms", s.kernel_wait_ms},
          {"other_ms", s.other_ms},
          {"idle_ms", s.idle_ms()}};
}

json idle_json(const IdleBreakdown& idle) {
  json streams = json::array();
  for (const StreamIdle& s : idle.streams) streams.push_back(stream_idle_json(s));
  json total = stream_idle_json(idle.total);
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

json launch_row_json(const LaunchRow& r) {
  return {{"name", r.name},
          {"launches", r.launches},
          {"cpu_median_us", r.cpu_median_us},
          {"cpu_p90_us", r.cpu_p90_us},
          {"cpu_max_us", r.cpu_max_us},
          {"delay_median_us", r.delay_median_us},
          {"delay_p90_us", r.delay_p90_us},
          {"delay_max_us", r.delay_max_us},
          {"delay_total_ms", r.delay_total_ms},
          {"cpu_outliers", r.cpu_outliers},
          {"delay_outliers", r.delay_outliers},
          {"short_kernels", r.short_kernels}};
}

json launches_json(const LaunchStats& l) {
  json kernels = json::array();
  for (const LaunchRow& r : l.kernels) kernels.push_back(launch_row_json(r));
  return {{"runtime_events", l.all.launches > 0},
          {"cpu_cutoff_us", l.cpu_cutoff_us},
          {"delay_cutoff_us", l.delay_cutoff_us},
          {"all", launch_row_json(l.all)},
          {"kernels", std::move(kernels)}};
}

}  // namespace

void add_trace_tables_json(json& rank, const RankAnalysis& a) {
  const HtaWindowInfo& w = a.hta_window;
  rank["hta_window"] = {{"window", w.keep_all ? "all" : "default"},
                        {"last_step_left_out", w.cut},
                        {"last_step", w.last_step},
                        {"cut_at_ms", w.cut_at_ms},
                        {"activities_left_out", w.activities_left_out},
                        {"gpu_ms_left_out", w.gpu_ms_left_out}};
  rank["idle_by_stream"] = idle_json(a.idle);
  rank["launch_stats"] = launches_json(a.launches);
  json annotations = json::array();
  for (const AnnotationRow& r : a.annotations) {
    annotations.push_back({{"name", r.name},
                           {"ranges", r.ranges},
                           {"ranges_with_gpu", r.ranges_with_gpu},
                           {"activities", r.activities},
                           {"gpu_ms", r.gpu_ms},
                           {"share", r.share},
                           {"per_step_ms", r.per_step_ms},
                           {"gpu_span_ms", r.gpu_span_ms}});
  }
  rank["annotations"] = std::move(annotations);
  json api = json::array();
  for (const ApiRow& r : a.api) {
    api.push_back({{"name", r.name},
                   {"calls", r.calls},
                   {"total_ms", r.total_ms},
                   {"mean_us", r.mean_us},
                   {"median_us", r.median_us},
                   {"max_us", r.max_us}});
  }
  rank["api_summary"] = std::move(api);
  json copies = json::array();
  for (const CopyRow& r : a.copies) {
    copies.push_back({{"kind", r.kind},
                      {"count", r.count},
                      {"sized", r.sized},
                      {"bytes", r.bytes},
                      {"time_ms", r.time_ms},
                      {"gbps", r.sized > 0 ? json(r.gbps) : json(nullptr)}});
  }
  rank["copies"] = std::move(copies);
  json queues = json::array();
  for (const QueueRow& r : a.queues) {
    queues.push_back({{"device", r.device},
                      {"stream", r.stream},
                      {"launches", r.launches},
                      {"mean_per_event", r.mean_per_event},
                      {"mean_time_weighted", r.mean_time_weighted},
                      {"max", r.max}});
  }
  rank["queue_length"] = std::move(queues);
  const HtaCommOverlap& o = a.hta_overlap;
  rank["hta_overlap"] = {
      {"communication_kernels", o.communication_kernels},
      {"communication_ms", o.communication_ms},
      {"computation_ms", o.computation_ms},
      {"overlap_ms", o.overlap_ms},
      {"comp_comm_overlap_pctg", o.communication_kernels > 0 ? json(o.comp_comm_overlap_pctg) : json(nullptr)},
      {"computation_only_ms", o.computation_only_ms()},
      {"communication_only_ms", o.communication_only_ms()}};
}

}  // namespace cuprobe
