#include "report/analyze_tables_csv.h"

#include "report/csv_table.h"

namespace cuprobe {
namespace {

std::string num(double v) { return csv_number(v); }
std::string count(std::int64_t v) { return std::to_string(v); }

// Calls add(rank label, rank) for each rank.
template <typename Fn>
void for_each_rank(const AnalyzeReport& r, Fn add) {
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const RankAnalysis& a = r.ranks[i];
    add(std::to_string(a.rank ? *a.rank : static_cast<int>(i)), a);
  }
}

std::string idle_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "device", "stream", "gaps", "host_wait_ms", "kernel_wait_ms", "other_ms", "idle_ms"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    for (const StreamIdle& s : a.idle.streams) {
      csv.row({rank, count(s.device), count(s.stream), count(s.gaps), num(s.host_wait_ms), num(s.kernel_wait_ms),
               num(s.other_ms), num(s.idle_ms())});
    }
  });
  return csv.text;
}

std::string launches_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "kernel", "launches", "cpu_median_us", "cpu_p90_us", "cpu_max_us", "delay_median_us",
               "delay_p90_us", "delay_max_us", "delay_total_ms", "cpu_outliers", "delay_outliers", "short_kernels"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    for (const LaunchRow& r : a.launches.kernels) {
      csv.row({rank, r.name, count(r.launches), num(r.cpu_median_us), num(r.cpu_p90_us), num(r.cpu_max_us),
               num(r.delay_median_us), num(r.delay_p90_us), num(r.delay_max_us), num(r.delay_total_ms),
               count(r.cpu_outliers), count(r.delay_outliers), count(r.short_kernels)});
    }
  });
  return csv.text;
}

std::string annotations_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "annotation", "ranges", "ranges_with_gpu", "activities", "gpu_ms", "share", "per_step_ms",
               "gpu_span_ms"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    for (const AnnotationRow& r : a.annotations) {
      csv.row({rank, r.name, count(r.ranges), count(r.ranges_with_gpu), count(r.activities), num(r.gpu_ms),
               num(r.share), num(r.per_step_ms), num(r.gpu_span_ms)});
    }
  });
  return csv.text;
}

std::string api_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "call", "calls", "total_ms", "mean_us", "median_us", "max_us"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    for (const ApiRow& r : a.api) {
      csv.row({rank, r.name, count(r.calls), num(r.total_ms), num(r.mean_us), num(r.median_us), num(r.max_us)});
    }
  });
  return csv.text;
}

std::string copies_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "kind", "count", "sized", "bytes", "time_ms", "gbps"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    for (const CopyRow& r : a.copies) {
      csv.row(
          {rank, r.kind, count(r.count), count(r.sized), num(r.bytes), num(r.time_ms), r.sized > 0 ? num(r.gbps) : ""});
    }
  });
  return csv.text;
}

std::string queues_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "device", "stream", "launches", "mean_per_event", "mean_time_weighted", "max"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    for (const QueueRow& r : a.queues) {
      csv.row({rank, count(r.device), count(r.stream), count(r.launches), num(r.mean_per_event),
               num(r.mean_time_weighted), count(r.max)});
    }
  });
  return csv.text;
}

// One row per rank (analysis/hta_comm_overlap.h); comp_comm_overlap_pctg empty without communication kernels.
std::string hta_overlap_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "communication_kernels", "communication_ms", "computation_ms", "overlap_ms",
               "comp_comm_overlap_pctg", "computation_only_ms", "communication_only_ms"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    const HtaCommOverlap& o = a.hta_overlap;
    csv.row({rank, count(o.communication_kernels), num(o.communication_ms), num(o.computation_ms), num(o.overlap_ms),
             o.communication_kernels > 0 ? num(o.comp_comm_overlap_pctg) : "", num(o.computation_only_ms()),
             num(o.communication_only_ms())});
  });
  return csv.text;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> trace_tables_csv(const AnalyzeReport& report) {
  return {{"idle.csv", idle_csv(report)},
          {"launches.csv", launches_csv(report)},
          {"annotations.csv", annotations_csv(report)},
          {"api.csv", api_csv(report)},
          {"copies.csv", copies_csv(report)},
          {"queues.csv", queues_csv(report)},
          {"hta_overlap.csv", hta_overlap_csv(report)}};
}

}  // namespace cuprobe
