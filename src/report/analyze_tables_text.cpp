#include "report/analyze_tables_text.h"

#include <algorithm>

#include "analysis/findings_what_if.h"
#include "report/text_table.h"
#include "report/trace_table_columns.h"

namespace cuprobe {
namespace {

std::string more_line(std::size_t total, std::size_t shown, const char* what) {
  if (total <= shown) return {};
  return "    ... " + std::to_string(total - shown) + " more " + what + " (--top N, --json, --csv)\n";
}

std::string idle_text(const IdleBreakdown& idle) {
  if (idle.streams.empty() || idle.total.gaps == 0) return {};
  TextTable table(text_headers(idle_columns()));
  for (const StreamIdle& s : idle.streams) {
    if (s.gaps > 0) table.add_row(text_cells(idle_columns(), s));
  }
  std::vector<std::string> total = text_cells(idle_columns(), idle.total);
  total[0] = "all";  // device and stream
  total[1] = "";
  table.add_row(std::move(total));
  std::string out =
      "\n  idle time by cause (gaps between a stream's activities; host wait: launched after the stream "
      "ran dry, kernel wait: under " +
      format_fixed(idle.kernel_wait_threshold_us, 0) + " us, as HTA):\n" + table.render("    ");
  if (!idle.launches_known) out += "    (no launch calls in the trace: no gap can be told to be host wait)\n";
  return out;
}

std::string launches_text(const LaunchStats& l, std::size_t top) {
  if (l.all.launches == 0) return {};
  TextTable table(text_headers(launch_columns()));
  std::vector<std::string> all = text_cells(launch_columns(), l.all);
  all[0] = "(all launches)";
  table.add_row(std::move(all));
  std::size_t shown = std::min(top, l.kernels.size());
  for (std::size_t i = 0; i < shown; ++i) table.add_row(text_cells(launch_columns(), l.kernels[i]));
  return "\n  launch delays (GPU start - end of the launch call; outliers: calls over " +
         format_fixed(l.cpu_cutoff_us, 0) + " us / delays over " + format_fixed(l.delay_cutoff_us, 0) +
         " us, as HTA; by total delay):\n" + table.render("    ") + more_line(l.kernels.size(), shown, "kernels");
}

std::string annotations_text(const std::vector<AnnotationRow>& rows, bool per_step, std::size_t top) {
  if (rows.empty()) return {};
  const char* left_out = per_step ? nullptr : "per_step_ms";
  TextTable table(text_headers(annotation_columns(), left_out));
  std::size_t shown = std::min(top, rows.size());
  for (std::size_t i = 0; i < shown; ++i) table.add_row(text_cells(annotation_columns(), rows[i], left_out));
  return "\n  annotations (GPU time of the activities launched inside each range; span: first start to last end):\n" +
         table.render("    ") + more_line(rows.size(), shown, "annotations");
}

std::string api_text(const std::vector<ApiRow>& rows, std::size_t top) {
  if (rows.empty()) return {};
  TextTable table(text_headers(api_columns()));
  std::size_t shown = std::min(top, rows.size());
  for (std::size_t i = 0; i < shown; ++i) table.add_row(text_cells(api_columns(), rows[i]));
  return "\n  runtime API (CPU time in calls, by total):\n" + table.render("    ") +
         more_line(rows.size(), shown, "calls");
}

std::string copies_text(const std::vector<CopyRow>& rows) {
  if (rows.empty()) return {};
  TextTable table(text_headers(copy_columns()));
  for (const CopyRow& r : rows) table.add_row(text_cells(copy_columns(), r));
  return "\n" + table.render("  ");
}

std::string queues_text(const std::vector<QueueRow>& rows, std::size_t top) {
  if (rows.empty()) return {};
  TextTable table(text_headers(queue_columns()));
  std::size_t shown = std::min(top, rows.size());
  for (std::size_t i = 0; i < shown; ++i) table.add_row(text_cells(queue_columns(), rows[i]));
  return "\n  queue length (launches not yet started on the GPU; mean per event: HTA's, the value after each launch "
         "and "
         "start averaged; time-weighted: by how long each value held):\n" +
         table.render("    ") + more_line(rows.size(), shown, "streams");
}

// HTA's get_comm_comp_overlap and kernel types (analysis/hta_comm_overlap.h); nothing without NCCL kernels.
std::string hta_overlap_text(const HtaCommOverlap& o) {
  if (o.communication_kernels == 0) return {};
  return "\n  communication beside computation (as HTA: NCCL kernels by name, the rank's GPUs together):\n"
         "    comp/comm overlap " +
         format_fixed(o.comp_comm_overlap_pctg, 2) + "% of communication " + format_duration_ms(o.communication_ms) +
         "; computation only " + format_duration_ms(o.computation_only_ms()) + ", communication only " +
         format_duration_ms(o.communication_only_ms()) + ", both " + format_duration_ms(o.overlap_ms) + "\n";
}

// The window of the tables named after HTA (analysis/hta_window.h), said before them.
std::string hta_window_text(const RankAnalysis& a) {
  const HtaWindowInfo& w = a.hta_window;
  if (a.idle.total.gaps == 0 && a.launches.all.launches == 0 && a.queues.empty() &&
      a.hta_overlap.communication_kernels == 0)
    return {};
  const char* tables = "idle time, launch delays, queue length and HTA's communication overlap";
  if (w.cut) {
    return std::string("\n  ") + tables + ": HTA's default window, without the last step (" + w.last_step + ", from " +
           format_duration_ms(w.cut_at_ms) + "; " + std::to_string(w.activities_left_out) + " activities, " +
           format_duration_ms(w.gpu_ms_left_out) + " of GPU time left out); --hta-window all keeps it\n";
  }
  if (w.keep_all) return std::string("\n  ") + tables + ": the whole trace (--hta-window all)\n";
  return {};  // under two ProfilerSteps HTA keeps the whole trace too
}

}  // namespace

std::string trace_tables_text(const RankAnalysis& a, std::size_t top) {
  return hta_window_text(a) + hta_overlap_text(a.hta_overlap) + idle_text(a.idle) + launches_text(a.launches, top) +
         annotations_text(a.annotations, !a.steps.steps.empty(), top) + api_text(a.api, top) + copies_text(a.copies) +
         queues_text(a.queues, top);
}

}  // namespace cuprobe
