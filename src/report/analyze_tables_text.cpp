#include "report/analyze_tables_text.h"

#include <algorithm>

#include "analysis/findings_what_if.h"
#include "report/kernel_display_name.h"
#include "report/text_table.h"

namespace cuprobe {
namespace {

std::string us(double v) { return format_duration_ms(v / 1e3); }

std::string stream_cell(std::int64_t stream) { return stream < 0 ? "-" : std::to_string(stream); }

std::string more_line(std::size_t total, std::size_t shown, const char* what) {
  if (total <= shown) return {};
  return "    ... " + std::to_string(total - shown) + " more " + what + " (--top N, --json, --csv)\n";
}

std::string idle_text(const IdleBreakdown& idle) {
  if (idle.streams.empty() || idle.total.gaps == 0) return {};
  TextTable table({"GPU", "stream", ">gaps", ">host wait", ">kernel wait", ">other", ">idle"});
  auto add = [&](const StreamIdle& s, std::string device, std::string stream) {
    table.add_row({std::move(device), std::move(stream), std::to_string(s.gaps), format_duration_ms(s.host_wait_ms),
                   format_duration_ms(s.kernel_wait_ms), format_duration_ms(s.other_ms),
                   format_duration_ms(s.idle_ms())});
  };
  for (const StreamIdle& s : idle.streams) {
    if (s.gaps > 0) add(s, std::to_string(s.device), stream_cell(s.stream));
  }
  add(idle.total, "all", "");
  std::string out =
      "\n  idle time by cause (gaps between a stream's activities; host wait: launched after the stream "
      "ran dry, kernel wait: under " +
      format_fixed(idle.kernel_wait_threshold_us, 0) + " us, as HTA):\n" + table.render("    ");
  if (!idle.launches_known) out += "    (no launch calls in the trace: no gap can be told to be host wait)\n";
  return out;
}

std::string launches_text(const LaunchStats& l, std::size_t top) {
  if (l.all.launches == 0) return {};
  TextTable table(
      {"launched", ">launches", ">call median", ">call p90", ">delay median", ">delay p90", ">delay max", ">outliers"});
  auto add = [&](const LaunchRow& r, std::string name) {
    table.add_row({std::move(name), std::to_string(r.launches), us(r.cpu_median_us), us(r.cpu_p90_us),
                   us(r.delay_median_us), us(r.delay_p90_us), us(r.delay_max_us),
                   std::to_string(r.cpu_outliers) + " / " + std::to_string(r.delay_outliers)});
  };
  add(l.all, "(all launches)");
  std::size_t shown = std::min(top, l.kernels.size());
  for (std::size_t i = 0; i < shown; ++i) add(l.kernels[i], kernel_display_name(l.kernels[i].name, 48));
  return "\n  launch delays (GPU start - end of the launch call; outliers: calls over " +
         format_fixed(l.cpu_cutoff_us, 0) + " us / delays over " + format_fixed(l.delay_cutoff_us, 0) +
         " us, as HTA; by total delay):\n" + table.render("    ") + more_line(l.kernels.size(), shown, "kernels");
}

std::string annotations_text(const std::vector<AnnotationRow>& rows, bool per_step, std::size_t top) {
  if (rows.empty()) return {};
  std::vector<std::string> headers{"annotation", ">ranges", ">GPU time", ">share"};
  if (per_step) headers.push_back(">per step");
  headers.push_back(">GPU span");
  TextTable table(headers);
  std::size_t shown = std::min(top, rows.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const AnnotationRow& r = rows[i];
    std::vector<std::string> row{kernel_display_name(r.name, 48), std::to_string(r.ranges),
                                 format_duration_ms(r.gpu_ms), format_percent(r.share)};
    if (per_step) row.push_back(format_duration_ms(r.per_step_ms));
    row.push_back(format_duration_ms(r.gpu_span_ms));
    table.add_row(std::move(row));
  }
  return "\n  annotations (GPU time of the activities launched inside each range; span: first start to last end):\n" +
         table.render("    ") + more_line(rows.size(), shown, "annotations");
}

std::string api_text(const std::vector<ApiRow>& rows, std::size_t top) {
  if (rows.empty()) return {};
  TextTable table({"API call", ">calls", ">total", ">mean", ">median", ">max"});
  std::size_t shown = std::min(top, rows.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const ApiRow& r = rows[i];
    table.add_row({r.name, std::to_string(r.calls), format_duration_ms(r.total_ms), us(r.mean_us), us(r.median_us),
                   us(r.max_us)});
  }
  return "\n  runtime API (CPU time in calls, by total):\n" + table.render("    ") +
         more_line(rows.size(), shown, "calls");
}

std::string copies_text(const std::vector<CopyRow>& rows) {
  if (rows.empty()) return {};
  TextTable table({"copies", ">count", ">bytes", ">time", ">GB/s"});
  for (const CopyRow& r : rows) {
    table.add_row({r.kind, std::to_string(r.count), r.sized > 0 ? format_bytes(r.bytes) : "-",
                   format_duration_ms(r.time_ms), r.sized > 0 ? format_fixed(r.gbps, 1) : "-"});
  }
  return "\n" + table.render("  ");
}

std::string queues_text(const std::vector<QueueRow>& rows, std::size_t top) {
  if (rows.empty()) return {};
  TextTable table({"GPU", "stream", ">launches", ">mean per event", ">time-weighted mean", ">max queued"});
  std::size_t shown = std::min(top, rows.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const QueueRow& r = rows[i];
    table.add_row({std::to_string(r.device), stream_cell(r.stream), std::to_string(r.launches),
                   format_fixed(r.mean_per_event, 2), format_fixed(r.mean_time_weighted, 2), std::to_string(r.max)});
  }
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
