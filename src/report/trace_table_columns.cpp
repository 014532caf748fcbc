#include "report/trace_table_columns.h"

#include "common/units.h"
#include "report/kernel_display_name.h"

namespace cuprobe {
namespace {

using Cell = TableCell;

std::string us(double v) { return format_duration_ms(v / 1e3); }
std::string ms(double v) { return format_duration_ms(v); }
std::string stream_cell(std::int64_t stream) { return stream < 0 ? "-" : std::to_string(stream); }

constexpr TableColumn<StreamIdle> kIdle[] = {
    {"device", [](const StreamIdle& s) -> Cell { return std::int64_t{s.device}; }, "GPU",
     [](const StreamIdle& s) { return std::to_string(s.device); }},
    {"stream", [](const StreamIdle& s) -> Cell { return s.stream; }, "stream",
     [](const StreamIdle& s) { return stream_cell(s.stream); }},
    {"gaps", [](const StreamIdle& s) -> Cell { return s.gaps; }, ">gaps",
     [](const StreamIdle& s) { return std::to_string(s.gaps); }},
    {"host_wait_ms", [](const StreamIdle& s) -> Cell { return s.host_wait_ms; }, ">host wait",
     [](const StreamIdle& s) { return ms(s.host_wait_ms); }},
    {"kernel_wait_ms", [](const StreamIdle& s) -> Cell { return s.kernel_wait_ms; }, ">kernel wait",
     [](const StreamIdle& s) { return ms(s.kernel_wait_ms); }},
    {"other_ms", [](const StreamIdle& s) -> Cell { return s.other_ms; }, ">other",
     [](const StreamIdle& s) { return ms(s.other_ms); }},
    {"idle_ms", [](const StreamIdle& s) -> Cell { return s.idle_ms(); }, ">idle",
     [](const StreamIdle& s) { return ms(s.idle_ms()); }},
};

constexpr TableColumn<LaunchRow> kLaunches[] = {
    {"name", [](const LaunchRow& r) -> Cell { return r.name; }, "launched",
     [](const LaunchRow& r) { return kernel_display_name(r.name, 48); }, "kernel"},
    {"launches", [](const LaunchRow& r) -> Cell { return r.launches; }, ">launches",
     [](const LaunchRow& r) { return std::to_string(r.launches); }},
    {"cpu_median_us", [](const LaunchRow& r) -> Cell { return r.cpu_median_us; }, ">call median",
     [](const LaunchRow& r) { return us(r.cpu_median_us); }},
    {"cpu_p90_us", [](const LaunchRow& r) -> Cell { return r.cpu_p90_us; }, ">call p90",
     [](const LaunchRow& r) { return us(r.cpu_p90_us); }},
    {"cpu_max_us", [](const LaunchRow& r) -> Cell { return r.cpu_max_us; }},
    {"delay_median_us", [](const LaunchRow& r) -> Cell { return r.delay_median_us; }, ">delay median",
     [](const LaunchRow& r) { return us(r.delay_median_us); }},
    {"delay_p90_us", [](const LaunchRow& r) -> Cell { return r.delay_p90_us; }, ">delay p90",
     [](const LaunchRow& r) { return us(r.delay_p90_us); }},
    {"delay_max_us", [](const LaunchRow& r) -> Cell { return r.delay_max_us; }, ">delay max",
     [](const LaunchRow& r) { return us(r.delay_max_us); }},
    {"delay_total_ms", [](const LaunchRow& r) -> Cell { return r.delay_total_ms; }},
    {"cpu_outliers", [](const LaunchRow& r) -> Cell { return r.cpu_outliers; }, ">outliers",
     [](const LaunchRow& r) { return std::to_string(r.cpu_outliers) + " / " + std::to_string(r.delay_outliers); }},
    {"delay_outliers", [](const LaunchRow& r) -> Cell { return r.delay_outliers; }},
    {"short_kernels", [](const LaunchRow& r) -> Cell { return r.short_kernels; }},
};

constexpr TableColumn<AnnotationRow> kAnnotations[] = {
    {"name", [](const AnnotationRow& r) -> Cell { return r.name; }, "annotation",
     [](const AnnotationRow& r) { return kernel_display_name(r.name, 48); }, "annotation"},
    {"ranges", [](const AnnotationRow& r) -> Cell { return r.ranges; }, ">ranges",
     [](const AnnotationRow& r) { return std::to_string(r.ranges); }},
    {"ranges_with_gpu", [](const AnnotationRow& r) -> Cell { return r.ranges_with_gpu; }},
    {"activities", [](const AnnotationRow& r) -> Cell { return r.activities; }},
    {"gpu_ms", [](const AnnotationRow& r) -> Cell { return r.gpu_ms; }, ">GPU time",
     [](const AnnotationRow& r) { return ms(r.gpu_ms); }},
    {"share", [](const AnnotationRow& r) -> Cell { return r.share; }, ">share",
     [](const AnnotationRow& r) { return format_percent(r.share); }},
    {"per_step_ms", [](const AnnotationRow& r) -> Cell { return r.per_step_ms; }, ">per step",
     [](const AnnotationRow& r) { return ms(r.per_step_ms); }},
    {"gpu_span_ms", [](const AnnotationRow& r) -> Cell { return r.gpu_span_ms; }, ">GPU span",
     [](const AnnotationRow& r) { return ms(r.gpu_span_ms); }},
};

constexpr TableColumn<ApiRow> kApi[] = {
    {"name", [](const ApiRow& r) -> Cell { return r.name; }, "API call", [](const ApiRow& r) { return r.name; },
     "call"},
    {"calls", [](const ApiRow& r) -> Cell { return r.calls; }, ">calls",
     [](const ApiRow& r) { return std::to_string(r.calls); }},
    {"total_ms", [](const ApiRow& r) -> Cell { return r.total_ms; }, ">total",
     [](const ApiRow& r) { return ms(r.total_ms); }},
    {"mean_us", [](const ApiRow& r) -> Cell { return r.mean_us; }, ">mean",
     [](const ApiRow& r) { return us(r.mean_us); }},
    {"median_us", [](const ApiRow& r) -> Cell { return r.median_us; }, ">median",
     [](const ApiRow& r) { return us(r.median_us); }},
    {"max_us", [](const ApiRow& r) -> Cell { return r.max_us; }, ">max", [](const ApiRow& r) { return us(r.max_us); }},
};

constexpr TableColumn<CopyRow> kCopies[] = {
    {"kind", [](const CopyRow& r) -> Cell { return r.kind; }, "copies", [](const CopyRow& r) { return r.kind; }},
    {"count", [](const CopyRow& r) -> Cell { return r.count; }, ">count",
     [](const CopyRow& r) { return std::to_string(r.count); }},
    {"sized", [](const CopyRow& r) -> Cell { return r.sized; }},
    {"bytes", [](const CopyRow& r) -> Cell { return r.bytes; }, ">bytes",
     [](const CopyRow& r) { return r.sized > 0 ? format_bytes(r.bytes) : "-"; }},
    {"time_ms", [](const CopyRow& r) -> Cell { return r.time_ms; }, ">time",
     [](const CopyRow& r) { return ms(r.time_ms); }},
    {"gbps", [](const CopyRow& r) -> Cell { return r.sized > 0 ? Cell(r.gbps) : Cell(); }, ">GB/s",
     [](const CopyRow& r) { return r.sized > 0 ? format_fixed(r.gbps, 1) : "-"; }},
};

constexpr TableColumn<QueueRow> kQueues[] = {
    {"device", [](const QueueRow& r) -> Cell { return std::int64_t{r.device}; }, "GPU",
     [](const QueueRow& r) { return std::to_string(r.device); }},
    {"stream", [](const QueueRow& r) -> Cell { return r.stream; }, "stream",
     [](const QueueRow& r) { return stream_cell(r.stream); }},
    {"launches", [](const QueueRow& r) -> Cell { return r.launches; }, ">launches",
     [](const QueueRow& r) { return std::to_string(r.launches); }},
    {"mean_per_event", [](const QueueRow& r) -> Cell { return r.mean_per_event; }, ">mean per event",
     [](const QueueRow& r) { return format_fixed(r.mean_per_event, 2); }},
    {"mean_time_weighted", [](const QueueRow& r) -> Cell { return r.mean_time_weighted; }, ">time-weighted mean",
     [](const QueueRow& r) { return format_fixed(r.mean_time_weighted, 2); }},
    {"max", [](const QueueRow& r) -> Cell { return r.max; }, ">max queued",
     [](const QueueRow& r) { return std::to_string(r.max); }},
};

// HTA's communication overlap of a rank; comp_comm_overlap_pctg none without communication kernels (HTA: NaN).
constexpr TableColumn<HtaCommOverlap> kHtaOverlap[] = {
    {"communication_kernels", [](const HtaCommOverlap& o) -> Cell { return o.communication_kernels; }},
    {"communication_ms", [](const HtaCommOverlap& o) -> Cell { return o.communication_ms; }},
    {"computation_ms", [](const HtaCommOverlap& o) -> Cell { return o.computation_ms; }},
    {"overlap_ms", [](const HtaCommOverlap& o) -> Cell { return o.overlap_ms; }},
    {"comp_comm_overlap_pctg",
     [](const HtaCommOverlap& o) -> Cell {
       return o.communication_kernels > 0 ? Cell(o.comp_comm_overlap_pctg) : Cell();
     }},
    {"computation_only_ms", [](const HtaCommOverlap& o) -> Cell { return o.computation_only_ms(); }},
    {"communication_only_ms", [](const HtaCommOverlap& o) -> Cell { return o.communication_only_ms(); }},
};

}  // namespace

TableColumns<StreamIdle> idle_columns() { return kIdle; }
TableColumns<LaunchRow> launch_columns() { return kLaunches; }
TableColumns<AnnotationRow> annotation_columns() { return kAnnotations; }
TableColumns<ApiRow> api_columns() { return kApi; }
TableColumns<CopyRow> copy_columns() { return kCopies; }
TableColumns<QueueRow> queue_columns() { return kQueues; }
TableColumns<HtaCommOverlap> hta_overlap_columns() { return kHtaOverlap; }

}  // namespace cuprobe
