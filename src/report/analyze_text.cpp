#include "report/analyze_text.h"

#include <algorithm>
#include <cmath>

#include "analysis/findings_what_if.h"
#include "common/units.h"
#include "report/analyze_table_columns.h"
#include "report/analyze_tables_text.h"
#include "report/cross_rank_text.h"
#include "report/finding_sources_text.h"
#include "report/finding_what_if_text.h"
#include "report/kernel_display_name.h"
#include "report/kernel_display_names.h"
#include "report/text_table.h"

namespace cuprobe {
namespace {

std::string rank_header(const RankAnalysis& a) {
  std::string h = a.rank ? "rank " + std::to_string(*a.rank) + ": " : "";
  h += a.file;
  if (!a.device.empty()) h += "  (" + a.device + ")";
  return h + "\n";
}

std::string steps_line(const StepSummary& s) {
  if (s.steps.empty())
    return "  steps: none found (no step annotations, no CUDA graph replays, no repeating kernel sequence)\n";
  std::string how = s.source == "annotation"    ? "annotation '" + s.marker + "'"
                    : s.source == "periodicity" ? "periodicity: " + s.marker
                                                : s.source + ": " + s.marker;
  std::string out = "  steps: " + std::to_string(s.steps.size()) + " (" + how + ")\n";
  out += "    step time " + format_duration_ms(s.median_ms) + " median, " + format_duration_ms(s.p90_ms) +
         " p90 (GPU clock: a step's first GPU work to the next step's)\n";
  out += "    GPU busy " + format_duration_ms(s.gpu_median_ms) + " median, " + format_duration_ms(s.gpu_p90_ms) +
         " p90 | GPU span " + format_duration_ms(s.gpu_span_median_ms) + " median";
  if (!s.cpu_from.empty()) {
    out += " | CPU " + format_duration_ms(s.cpu_median_ms) + " median (" +
           (s.cpu_from == "annotation" ? std::string("annotation range") : s.cpu_from) + ")";
  }
  out += "\n";
  if (s.before_first_step > 0) {
    out += "    " + std::to_string(s.before_first_step) +
           " GPU activities before the first step (warm-up, capture) are in no step\n";
  }
  return out;
}

// A rank on several GPUs (one process driving them): each GPU's own busy and idle time.
std::string devices_text(const RankAnalysis& a) {
  if (a.devices.size() < 2) return {};
  bool per_step = !a.steps.steps.empty();
  std::string span = per_step ? "step" : "window";
  TextTable table({"GPU", "name", ">busy", ">of window", per_step ? ">busy/step" : ">busy", ">idle of " + span,
                   ">waiting for another GPU"});
  for (const auto& d : a.devices) {
    table.add_row({std::to_string(d.device), d.name.empty() ? "-" : d.name, format_duration_ms(d.busy_ms),
                   format_percent(d.busy_share),
                   per_step ? format_duration_ms(d.step_busy_median_ms) : format_duration_ms(d.busy_ms),
                   format_percent(d.idle_share), format_percent(d.waiting_share)});
  }
  return "  " + std::to_string(a.devices.size()) +
         " GPUs driven by this rank (GPU busy above: the time any of them works; medians per step):\n" +
         table.render("    ");
}

std::string tensor_core_text(const RankAnalysis& a) {
  if (a.tensor_core_hidden_ms > 0 && a.tensor_core_basis_ms <= 0)
    return "tensor cores unknown (whole CUDA graph launches hide their kernels)";
  return "tensor cores " + format_percent(a.tensor_core_share) + " of GPU time" +
         (a.tensor_core_hidden_ms > 0 ? " outside whole CUDA graph launches" : "") +
         (a.tensor_core_per_step ? " (median step; " + format_percent(a.tensor_core_share_window) + " over the window)"
                                 : "");
}

// "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed" -> "pipe_tensor_cycles_active %"
std::string short_metric_name(const std::string& metric) {
  std::string m = metric;
  if (m.starts_with("TPC.TriageCompute.")) m = m.substr(18);
  bool percent = m.find("pct_of_peak") != std::string::npos;
  std::size_t dot = m.find('.');
  if (dot != std::string::npos) m.resize(dot);
  std::size_t unit = m.find("__");
  if (unit != std::string::npos) m = m.substr(0, unit) + ":" + m.substr(unit + 2);
  for (const char* noise : {"_realtime", "_cycles_active", "cycles_active"}) {
    if (std::size_t at = m.find(noise); at != std::string::npos && at + std::string_view(noise).size() == m.size())
      m.resize(at);
  }
  return percent ? m + " %" : m;
}

// cuprobe's own column names ("tensor_active_pct") or raw CUPTI names, for a table header.
std::string metric_header(const std::string& metric) {
  if (metric.ends_with("_pct")) return metric.substr(0, metric.size() - 4) + " %";
  if (metric.ends_with("_bytes_per_s")) return metric.substr(0, metric.size() - 12);
  return short_metric_name(metric);
}

// "tensor_active 93.1%", "dram_read 810.4 GB/s", "tensor_active -".
std::string metric_reading(const std::string& metric, double value) {
  bool pct = metric.ends_with("_pct");
  std::string text = format_metric_value(value, metric);
  if (pct && std::isfinite(value)) text += "%";
  return (pct ? metric.substr(0, metric.size() - 4) : metric_header(metric)) + " " + text;
}

// The columns worth a reader's eye when the preset's are there; all of them otherwise (raw --metrics).
std::vector<std::size_t> shown_metrics(const std::vector<std::string>& metrics) {
  static const char* kPreferred[] = {"tensor_active_pct",
                                     "tensor_hmma_pct",
                                     "sm_active_pct",
                                     "fma_pct",
                                     "dram_pct",
                                     "dram_read_bytes_per_s",
                                     "dram_write_bytes_per_s",
                                     "nvlink_rx_bytes_per_s",
                                     "nvlink_tx_bytes_per_s"};
  std::vector<std::size_t> shown;
  for (const char* want : kPreferred) {
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      if (metrics[m] == want) shown.push_back(m);
    }
  }
  if (shown.empty()) {
    for (std::size_t m = 0; m < metrics.size(); ++m) shown.push_back(m);
  }
  return shown;
}

std::string counters_text(const RankAnalysis& a) {
  const auto& c = a.counters;
  if (c.metrics.empty()) return {};
  std::vector<std::size_t> shown = shown_metrics(c.metrics);
  double sample_ms = static_cast<double>(c.median_sample_ns) / 1e6;
  std::string sample_len = format_duration_ms(sample_ms >= 1 ? std::round(sample_ms * 10) / 10 : sample_ms);
  std::string overall;
  for (std::size_t m : shown) overall += (overall.empty() ? "" : ", ") + metric_reading(c.metrics[m], c.overall[m]);
  std::vector<const CounterAttributionRow*> rows;
  for (const auto& r : c.by_category) rows.push_back(&r);
  std::size_t categories = rows.size();
  for (std::size_t i = 0; i < c.by_kernel.size() && i < 5; ++i) rows.push_back(&c.by_kernel[i]);
  const CounterAttributionRow* best = nullptr;
  for (const auto* r : rows) {
    if (!best || r->ran_share() > best->ran_share()) best = r;
  }
  std::string out =
      "\n  counters (device-wide samples of " + sample_len +
      (c.overall_over_kernels ? "), first to last kernel: " : "), whole recording (no kernels traced): ") + overall +
      "\n";
  if (!best || !best->readings_are_own()) {
    out += "    per kernel: none shown. No category or kernel ran for half of the sampled time it overlaps (most: " +
           (best ? kernel_display_name(best->key, 48) + " " + format_percent(best->ran_share()) : std::string("none")) +
           "),\n    so their readings would be mostly other work or idle time. Kernels need to run about as long as a "
           "sample\n    (`record --interval 1ms` shortens it).\n";
    return out;
  }
  std::vector<std::string> headers{"while it ran", ">ran"};
  for (std::size_t m : shown) headers.push_back(">" + metric_header(c.metrics[m]));
  TextTable table(headers);
  bool hidden = false;
  std::vector<std::string> keys;
  for (std::size_t i = categories; i < rows.size(); ++i) keys.push_back(rows[i]->key);
  std::vector<std::string> kernel_names = unique_kernel_display_names(keys, 48);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = *rows[i];
    std::vector<std::string> row{i < categories ? r.key : kernel_names[i - categories], format_percent(r.ran_share())};
    bool own = r.readings_are_own();
    hidden = hidden || !own;
    for (std::size_t m : shown) row.push_back(own ? format_metric_value(r.means[m], c.metrics[m]) : "-");
    table.add_row(std::move(row));
  }
  out += table.render();
  if (hidden) {
    out += "  '-': ran under half of the sampled time it overlaps; its readings would be mostly other work or idle.\n";
  }
  return out;
}

// What the shares are of, said where work overlaps (otherwise the summed time is the busy time).
std::string shares_line(const RankAnalysis& a) {
  double busy = a.gpu_time_ms();
  if (a.summed_ms <= busy * 1.001) return {};
  return "  shares: of the summed time of all GPU activities, " + format_duration_ms(a.summed_ms) + " (GPU busy " +
         format_duration_ms(busy) + ": " + format_duration_ms(a.summed_ms - busy) +
         " of activity ran beside other activity)\n";
}

// Communication and copies beside compute (analysis/category_overlap.h).
std::string overlap_line(const RankAnalysis& a) {
  const CategoryOverlap& o = a.overlap;
  if (o.comm_ms <= 0 && o.copy_ms <= 0) return {};
  bool per_step = !a.steps.steps.empty();
  auto part = [&](const char* what, double ms, double share, double step_median, std::int64_t steps) {
    std::string text =
        std::string(what) + " " + format_duration_ms(ms) + ", " + format_percent(share) + " of it beside compute";
    if (per_step && steps > 0) text += " (median per step " + format_percent(step_median) + ")";
    return text;
  };
  std::string line = "  overlap:";
  if (o.comm_ms > 0)
    line += " " + part("communication", o.comm_ms, o.comm_overlapped_share, o.comm_overlapped_share_step_median,
                       o.steps_with_comm);
  if (o.copy_ms > 0)
    line += std::string(o.comm_ms > 0 ? ";" : "") + " " +
            part("copies", o.copy_ms, o.copy_overlapped_share, o.copy_overlapped_share_step_median, o.steps_with_copy);
  return line + "\n";
}

// How categories were decided, shown only when some kernel names were not enough.
std::string category_decisions_line(const RankAnalysis& a) {
  bool names_enough = std::all_of(a.category_decisions.begin(), a.category_decisions.end(), [](const auto& d) {
    return d.source == CategorySource::kName || d.source == CategorySource::kKind;
  });
  if (names_enough) return {};
  std::string line = "  category decided by:";
  for (const auto& d : a.category_decisions) {
    std::string_view label = d.source == CategorySource::kName       ? "kernel name"
                             : d.source == CategorySource::kKind     ? "activity kind"
                             : d.source == CategorySource::kLaunchOp ? "launching operator"
                                                                     : "nothing (other)";
    line += (d.source == a.category_decisions.front().source ? " " : " | ") + std::string(label) + " " +
            format_percent(d.share) + " (" + std::to_string(d.kernels) +
            (d.kernels == 1 ? " kernel name)" : " kernel names)");
  }
  return line + "\n";
}

// The work of the top kernels whose work is known: bytes (and where they come from),
// FLOPs, rates, share of peak, bound; the DRAM bytes measured beside bytes from
// shapes or memcpy records where counters cover such a kernel.
std::string work_text(const RankAnalysis& a, std::size_t top_kernels) {
  std::size_t shown = std::min(a.kernels.size(), top_kernels);
  bool beside =
      std::any_of(a.kernels.begin(), a.kernels.begin() + static_cast<std::ptrdiff_t>(shown),
                  [](const KernelRow& k) { return k.work && k.dram_bytes_measured && k.work->source != "counters"; });
  std::vector<std::string> headers{"work of the top kernels", ">bytes", "from"};
  if (beside) headers.push_back(">DRAM measured");
  headers.insert(headers.end(), {">FLOPs", ">TB/s", ">TFLOP/s", ">of peak", "bound"});
  TextTable table(headers);
  bool any = false, beyond = false;
  std::vector<std::string> full;
  for (std::size_t i = 0; i < shown; ++i) {
    if (a.kernels[i].work) full.push_back(a.kernels[i].name);
  }
  std::vector<std::string> names = unique_kernel_display_names(full, 48);
  for (std::size_t i = 0, row_index = 0; i < shown; ++i) {
    const auto& k = a.kernels[i];
    if (!k.work) continue;
    any = true;
    beyond = beyond || !k.work->beyond_peak.empty();
    const KernelWork& w = *k.work;
    std::vector<std::string> row{names[row_index++], format_bytes(w.bytes), w.source};
    if (beside) row.push_back(k.dram_bytes_measured ? format_bytes(*k.dram_bytes_measured) : "-");
    row.insert(row.end(), {w.flops > 0 ? format_fixed(w.flops / 1e9, 1) + " G" : "-", format_fixed(w.achieved_tbps, 2),
                           w.flops > 0 ? format_fixed(w.achieved_tflops, 1) : "-",
                           w.peak_share ? format_percent(*w.peak_share) : "-",
                           !w.beyond_peak.empty() ? "beyond peak!"
                           : w.bound.empty()      ? "-"
                                                  : w.bound});
    table.add_row(std::move(row));
  }
  std::string peaks =
      a.peaks ? "peaks: " + a.peaks->name +
                    (a.peaks->memory_tbps ? ", " + format_fixed(*a.peaks->memory_tbps, 2) + " TB/s" : std::string())
              : "peaks: unknown for this GPU (--peak bw=TBPS,bf16=TFLOPS,... gives them)";
  if (!any) {
    return a.op_shapes
               ? "\n  work: no top kernel's launching operator has shapes the work model knows (" + peaks + ")\n"
               : std::string();
  }
  return "\n" + table.render() + "  (" + peaks +
         "; from: shapes = operator shapes, memcpy = the copy's own count, counters = DRAM bytes measured)\n" +
         (beyond ? "  beyond peak!: the counted work exceeds what the GPU can do in that time, so it is not what the "
                   "kernel moved; left out of the what-ifs (see the warnings)\n"
                 : "");
}

std::string rank_text(const RankAnalysis& a, std::size_t top_kernels) {
  std::string out = rank_header(a);
  out += "  window " + format_duration_ms(a.window_ms) + " | GPU busy " + format_duration_ms(a.gpu_busy_ms) + " (" +
         format_percent(a.gpu_busy_share) + ") | " + std::to_string(a.gpu_activities) + " GPU activities | " +
         tensor_core_text(a) + "\n";
  out += steps_line(a.steps);
  out += devices_text(a);
  bool per_step = !a.steps.steps.empty();

  const char* left_out = per_step ? nullptr : "per_step_ms";
  TextTable cats(text_headers(category_columns(), left_out));
  for (const auto& c : a.categories) cats.add_row(text_cells(category_columns(), c, left_out));
  out += "\n" + cats.render();
  out += shares_line(a);
  out += overlap_line(a);
  out += category_decisions_line(a);

  TextTable kernels(text_headers(kernel_columns()));
  std::vector<std::string> kernel_names = rank_kernel_display_names(a);
  for (std::size_t i = 0; i < a.kernels.size() && i < top_kernels; ++i)
    kernels.add_row(text_cells(kernel_columns(), KernelTableRow{a.kernels[i], kernel_names[i]}));
  out += "\n" + kernels.render();
  if (a.kernels.size() > top_kernels) {
    out += "  ... " + std::to_string(a.kernels.size() - top_kernels) + " more kernels (--top N, or --json)\n";
  }
  out += work_text(a, top_kernels);
  out += counters_text(a);
  if (!a.unknown_kernels.empty()) {
    out += "  not in the taxonomy (counted as 'other'):";
    std::vector<std::string> unknown(
        a.unknown_kernels.begin(),
        a.unknown_kernels.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(5, a.unknown_kernels.size())));
    std::vector<std::string> unknown_names = unique_kernel_display_names(unknown, 48);
    for (std::size_t i = 0; i < unknown_names.size(); ++i) out += (i ? ", " : " ") + unknown_names[i];
    out += a.unknown_kernels.size() > 5 ? ", ...\n" : "\n";
  }
  out += trace_tables_text(a, top_kernels);
  return out;
}

}  // namespace

std::string findings_text(const AnalyzeReport& report) {
  const std::vector<Finding>& findings = report.findings;
  bool show_rank = report.ranks.size() > 1;
  if (findings.empty()) return "findings: none (nothing crossed a threshold; see docs/findings.md)\n";
  std::string out = "findings (ranked by the step time their what-if saves that no finding above claims):\n";
  int n = 0;
  for (const auto& f : findings) {
    out += "  " + std::to_string(++n) + ". [" + f.severity + "] " + f.id;
    if (show_rank && f.rank) out += " (rank " + std::to_string(*f.rank) + ")";
    out += ": " + f.title + "\n";
    if (!f.kernels.empty()) {  // under their rows' names in the kernel table
      out += "     kernels:";
      std::vector<std::string> names = finding_kernel_display_names(report, f);
      for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : " ") + names[i];
      out += "\n";
    }
    if (!f.sources.empty()) out += "     from: " + finding_sources_text(f) + "\n";
    out += "     -> " + f.suggestion + "\n";
    out += "     what if: " + what_if_line(f) + "\n";
  }
  return out;
}

std::string analyze_text(const AnalyzeReport& report, std::size_t top_kernels) {
  std::string out;
  for (const auto& a : report.ranks) out += rank_text(a, top_kernels) + "\n";
  if (report.cross_rank) out += cross_rank_text(*report.cross_rank, top_kernels) + "\n";
  out += findings_text(report);
  if (!report.warnings.empty()) {
    out += "\nwarnings:\n";
    for (const auto& w : report.warnings) out += "  " + w + "\n";
  }
  return out;
}

}  // namespace cuprobe
