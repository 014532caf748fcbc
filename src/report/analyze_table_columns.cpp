#include "report/analyze_table_columns.h"

#include <array>
#include <utility>
#include <vector>

#include "analysis/kernel_taxonomy.h"
#include "common/units.h"

namespace cuprobe {
namespace {

using Cell = TableCell;
using Json = nlohmann::ordered_json;

Cell ns_ms(TimeNs t) { return static_cast<double>(t) / 1e6; }
Cell text(std::string_view s) { return std::string(s); }
Cell optional_number(const std::optional<double>& v) { return v ? Cell(*v) : Cell(); }
Cell nonempty(const std::string& s) { return s.empty() ? Cell() : Cell(s); }
Json left_out() { return Json(Json::value_t::discarded); }

// The text tables' durations: "1.56 ms", "2.4 us".
std::string us_text(double us) { return format_duration_ms(us / 1e3); }

// The text table's columns, by text_at: category, time, share, per step (left out without steps), calls.
constexpr TableColumn<CategoryRow> kCategories[] = {
    {.name = "category",
     .value = [](const CategoryRow& c) { return text(category_name(c.category)); },
     .text_header = "category",
     .text = [](const CategoryRow& c) { return std::string(category_name(c.category)); },
     .text_at = 1},
    {.name = "time_ms",
     .value = [](const CategoryRow& c) -> Cell { return c.time_ms; },
     .text_header = ">time",
     .text = [](const CategoryRow& c) { return format_duration_ms(c.time_ms); },
     .text_at = 2},
    {.name = "share",
     .value = [](const CategoryRow& c) -> Cell { return c.share; },
     .text_header = ">share",
     .text = [](const CategoryRow& c) { return format_percent(c.share); },
     .text_at = 3},
    {.name = "calls",
     .value = [](const CategoryRow& c) -> Cell { return c.calls; },
     .text_header = ">calls",
     .text = [](const CategoryRow& c) { return std::to_string(c.calls); },
     .text_at = 5},
    {.name = "per_step_ms",  // text: "-" where all of it ran outside steps
     .value = [](const CategoryRow& c) -> Cell { return c.per_step_ms; },
     .text_header = ">per step",
     .text = [](const CategoryRow& c) { return c.per_step_ms > 0 ? format_duration_ms(c.per_step_ms) : "-"; },
     .text_at = 4},
    {.name = "per_step_median_ms",
     .value = [](const CategoryRow& c) -> Cell { return c.per_step_median_ms; },
     .in = kCsvForm},
    {"summed_share", [](const CategoryRow& c) -> Cell { return c.summed_share; }},
    {"busy_ratio", [](const CategoryRow& c) -> Cell { return c.busy_ratio; }},
};

using K = KernelTableRow;

// The JSON's busy_ratio follows summed_share; the CSV's ends the row.
constexpr TableColumn<K> kKernelBusyRatio = {"busy_ratio", [](const K& r) -> Cell { return r.kernel.busy_ratio; }};

std::string tri_state(const std::optional<bool>& b) { return b ? (*b ? "yes" : "no") : "?"; }

// "norm (op)": decided by the launching operator, the kernel's name being unknown.
std::string category_cell(const KernelRow& k) {
  std::string cell(category_name(k.category));
  if (k.decided_by == CategorySource::kLaunchOp) cell += " (op)";
  return cell;
}

// Work columns (docs/findings.md, "Work per kernel"), JSON only: null where unknown; work_calls, work_dtype and
// work_source left out without work.
template <typename T>
Cell work_cell(const K& r, T KernelWork::*field) {
  return r.kernel.work ? Cell((*r.kernel.work).*field) : Cell();
}

// The text table's columns, by text_at: kernel (the display name), calls, total, mean, median, max, share,
// category, TC, prec.
constexpr TableColumn<K> kKernels[] = {
    {.name = "name", .value = [](const K& r) -> Cell { return r.kernel.name; }, .csv_name = "kernel"},
    {.name = "category",
     .value = [](const K& r) { return text(category_name(r.kernel.category)); },
     .text_header = "category",
     .text = [](const K& r) { return category_cell(r.kernel); },
     .text_at = 8},
    {.name = "tensor_core",
     .value = [](const K& r) -> Cell { return r.kernel.tensor_core ? (*r.kernel.tensor_core ? "yes" : "no") : ""; },
     .text_header = "TC",
     .text = [](const K& r) { return tri_state(r.kernel.tensor_core); },
     .json = [](const K& r) { return r.kernel.tensor_core ? Json(*r.kernel.tensor_core) : Json(nullptr); },
     .text_at = 9},
    {.name = "precision",
     .value = [](const K& r) { return r.kernel.precision ? text(precision_name(*r.kernel.precision)) : Cell(); },
     .text_header = "prec",
     .text = [](const K& r) { return r.kernel.precision ? std::string(precision_name(*r.kernel.precision)) : "-"; },
     .text_at = 10},
    {.name = "calls",
     .value = [](const K& r) -> Cell { return r.kernel.calls; },
     .text_header = ">calls",
     .text = [](const K& r) { return std::to_string(r.kernel.calls); },
     .text_at = 2},
    {.name = "time_ms",
     .value = [](const K& r) -> Cell { return r.kernel.time_ms; },
     .text_header = ">total",
     .text = [](const K& r) { return format_duration_ms(r.kernel.time_ms); },
     .text_at = 3},
    {.name = "share",
     .value = [](const K& r) -> Cell { return r.kernel.share; },
     .text_header = ">share",
     .text = [](const K& r) { return format_percent(r.kernel.share); },
     .text_at = 7},
    {.name = "mean_us",
     .value = [](const K& r) -> Cell { return r.kernel.mean_us; },
     .text_header = ">mean",
     .text = [](const K& r) { return us_text(r.kernel.mean_us); },
     .text_at = 4},
    {"per_step_ms", [](const K& r) -> Cell { return r.kernel.per_step_ms; }},
    {.name = "decided_by",
     .value = [](const K& r) { return text(category_source_name(r.kernel.decided_by)); },
     .in = kJsonForm},
    {.name = "rule", .value = [](const K& r) -> Cell { return r.kernel.rule; }, .csv_name = "decided_by_rule"},
    {"summed_share", [](const K& r) -> Cell { return r.kernel.summed_share; }},
    only(kKernelBusyRatio, kJsonForm),
    {.name = "display_name",  // unique in the rank's table
     .value = [](const K& r) -> Cell { return r.display_name; },
     .text_header = "kernel",
     .text = [](const K& r) { return r.display_name; },
     .text_at = 1},
    {"min_us", [](const K& r) -> Cell { return r.kernel.min_us; }},
    {.name = "median_us",
     .value = [](const K& r) -> Cell { return r.kernel.median_us; },
     .text_header = ">median",
     .text = [](const K& r) { return us_text(r.kernel.median_us); },
     .text_at = 5},
    {"p90_us", [](const K& r) -> Cell { return r.kernel.p90_us; }},
    {.name = "max_us",
     .value = [](const K& r) -> Cell { return r.kernel.max_us; },
     .text_header = ">max",
     .text = [](const K& r) { return us_text(r.kernel.max_us); },
     .text_at = 6},
    {"std_us", [](const K& r) -> Cell { return r.kernel.std_us; }},
    only(kKernelBusyRatio, kCsvForm),
    {.name = "dram_bytes_measured",
     .value = [](const K& r) { return optional_number(r.kernel.dram_bytes_measured); },
     .in = kJsonForm},
    {.name = "bytes", .value = [](const K& r) { return work_cell(r, &KernelWork::bytes); }, .in = kJsonForm},
    {.name = "flops", .value = [](const K& r) { return work_cell(r, &KernelWork::flops); }, .in = kJsonForm},
    {.name = "achieved_tbps",
     .value = [](const K& r) { return work_cell(r, &KernelWork::achieved_tbps); },
     .in = kJsonForm},
    {.name = "achieved_tflops",
     .value = [](const K& r) { return work_cell(r, &KernelWork::achieved_tflops); },
     .in = kJsonForm},
    {.name = "peak_share",
     .value = [](const K& r) { return r.kernel.work ? optional_number(r.kernel.work->peak_share) : Cell(); },
     .in = kJsonForm},
    {.name = "bound",
     .value = [](const K& r) { return r.kernel.work ? nonempty(r.kernel.work->bound) : Cell(); },
     .in = kJsonForm},
    {.name = "work_calls",
     .value = nullptr,
     .json = [](const K& r) { return r.kernel.work ? Json(r.kernel.work->calls) : left_out(); },
     .in = kJsonForm},
    {.name = "work_dtype",
     .value = nullptr,
     .json = [](const K& r) { return r.kernel.work ? json_cell(nonempty(r.kernel.work->dtype)) : left_out(); },
     .in = kJsonForm},
    {.name = "work_source",
     .value = nullptr,
     .json = [](const K& r) { return r.kernel.work ? Json(r.kernel.work->source) : left_out(); },
     .in = kJsonForm},
    {.name = "beyond_peak",  // physics as a check
     .value = [](const K& r) { return r.kernel.work ? nonempty(r.kernel.work->beyond_peak) : Cell(); },
     .in = kJsonForm},
};

using S = StepTableRow;

// The JSON's cpu_ms and gpu_ms come before gpu_span_ms; the CSV's gpu_busy_ms follows it, its cpu_ms the
// categories.
constexpr TableColumn<S> kStepCpu = {"cpu_ms", [](const S& r) { return ns_ms(r.step.cpu_end - r.step.cpu_start); }};
constexpr TableColumn<S> kStepGpuBusy = {
    .name = "gpu_ms", .value = [](const S& r) { return ns_ms(r.step.gpu_busy); }, .csv_name = "gpu_busy_ms"};

constexpr TableColumn<S> kStepsHead[] = {
    {.name = "step", .value = [](const S& r) -> Cell { return static_cast<std::int64_t>(r.index); }, .in = kCsvForm},
    {"kind", [](const S& r) -> Cell { return r.step.kind; }},
    {.name = "start_ms", .value = [](const S& r) { return ns_ms(r.step.cpu_start - r.origin); }, .in = kCsvForm},
    {.name = "time_ms", .value = [](const S& r) { return ns_ms(r.step.time); }, .csv_name = "step_ms"},
    {.name = "gpu_start_ns", .value = [](const S& r) -> Cell { return r.step.gpu_start; }, .in = kJsonForm},
    only(kStepCpu, kJsonForm),
    only(kStepGpuBusy, kJsonForm),
    {"gpu_span_ms", [](const S& r) { return ns_ms(r.step.gpu_end - r.step.gpu_start); }},
    only(kStepGpuBusy, kCsvForm),
    {"activities", [](const S& r) -> Cell { return r.step.activities; }},
    {.name = "start_ns", .value = [](const S& r) -> Cell { return r.step.cpu_start; }, .in = kJsonForm},
};

constexpr TableColumn<S> kStepsTail[] = {
    only(kStepCpu, kCsvForm),
    {.name = "outlier",
     .value = [](const S& r) -> Cell { return std::int64_t{r.step.outlier ? 1 : 0}; },
     .json = [](const S& r) { return Json(r.step.outlier); }},
    {"comm_ms", [](const S& r) { return ns_ms(r.step.comm_ns); }},
    {"comm_overlapped_ms", [](const S& r) { return ns_ms(r.step.comm_overlapped_ns); }},
    {"copy_ms", [](const S& r) { return ns_ms(r.step.copy_ns); }},
    {"copy_overlapped_ms", [](const S& r) { return ns_ms(r.step.copy_overlapped_ns); }},
};

// The CSV's time of each category in the step, <category>_ms, in Category order.
template <std::size_t C>
Cell step_category_ms(const S& r) {
  return ns_ms(r.step.category_ns[C]);
}

template <std::size_t... C>
void add_step_category_columns(std::vector<TableColumn<S>>& out, std::index_sequence<C...>) {
  static const std::array<std::string, sizeof...(C)> names{
      (std::string(category_name(static_cast<Category>(C))) + "_ms")...};
  (out.push_back({.name = names[C].c_str(), .value = &step_category_ms<C>, .in = kCsvForm}), ...);
}

std::vector<TableColumn<S>> steps_columns() {
  std::vector<TableColumn<S>> out(std::begin(kStepsHead), std::end(kStepsHead));
  add_step_category_columns(out, std::make_index_sequence<kCategoryCount>());
  out.insert(out.end(), std::begin(kStepsTail), std::end(kStepsTail));
  return out;
}

using F = FindingTableRow;

Cell finding_rank(const F& r) { return r.finding.rank ? Cell(std::int64_t{*r.finding.rank}) : Cell(); }

// The CSV's rank follows the order, the JSON's step_share; the CSV's kernels (one a line) come before the
// suggestion, the JSON's (a list) after it.
constexpr TableColumn<F> kFindingRank = {"rank", &finding_rank};
constexpr TableColumn<F> kFindingKernels = {.name = "kernels",
                                            .value = [](const F& r) -> Cell {
                                              std::string kernels;
                                              for (const auto& k : r.finding.kernels)
                                                kernels += (kernels.empty() ? "" : "\n") + k;
                                              return kernels;
                                            },
                                            .json = [](const F& r) { return Json(r.finding.kernels); }};

Json what_if_json(const F& r) {
  const Finding& f = r.finding;
  return {{"description", f.what_if.description},
          {"step_ms_now", f.what_if.step_ms_now},
          {"step_ms_after", f.what_if.step_ms_after ? Json(*f.what_if.step_ms_after) : Json(nullptr)},
          {"gain_ms", f.gain_ms()},
          {"step_ms_after_alone", f.what_if.step_ms_after_alone ? Json(*f.what_if.step_ms_after_alone) : Json(nullptr)},
          {"gain_ms_alone", f.alone_gain_ms()},
          {"generic", f.claim.generic}};
}

// with_stack traces only: where in the user's code its kernels were launched; left out where none is known.
Json sources_json(const F& r) {
  if (r.finding.sources.empty()) return left_out();
  Json sources = Json::array();
  for (const SourceLine& s : r.finding.sources)
    sources.push_back(
        {{"file", s.file}, {"line", s.line}, {"function", s.function}, {"share", s.share}, {"time_ms", s.time_ms}});
  return sources;
}

constexpr TableColumn<F> kFindings[] = {
    {.name = "order", .value = [](const F& r) -> Cell { return std::int64_t{r.order}; }, .in = kCsvForm},
    only(kFindingRank, kCsvForm),
    {"id", [](const F& r) -> Cell { return r.finding.id; }},
    {"severity", [](const F& r) -> Cell { return r.finding.severity; }},
    {"share", [](const F& r) -> Cell { return r.finding.share; }},
    {"step_share", [](const F& r) -> Cell { return r.finding.step_share; }},
    only(kFindingRank, kJsonForm),
    {"title", [](const F& r) -> Cell { return r.finding.title; }},
    only(kFindingKernels, kCsvForm),
    {"suggestion", [](const F& r) -> Cell { return r.finding.suggestion; }},
    only(kFindingKernels, kJsonForm),
    {.name = "numbers",
     .value = nullptr,
     .json =
         [](const F& r) {
           Json numbers = Json::object();
           for (const auto& [k, v] : r.finding.numbers) numbers[k] = v;
           return numbers;
         },
     .in = kJsonForm},
    {.name = "what_if", .value = nullptr, .json = &what_if_json, .in = kJsonForm},
    {.name = "sources", .value = nullptr, .json = &sources_json, .in = kJsonForm},
};

using R = RankAnalysis;

constexpr TableColumn<R> kOverlap[] = {
    {"comm_ms", [](const R& a) -> Cell { return a.overlap.comm_ms; }},
    {"comm_overlapped_ms", [](const R& a) -> Cell { return a.overlap.comm_overlapped_ms; }},
    {"comm_overlapped_share", [](const R& a) -> Cell { return a.overlap.comm_overlapped_share; }},
    {"comm_overlapped_share_step_median",
     [](const R& a) -> Cell { return a.overlap.comm_overlapped_share_step_median; }},
    {.name = "steps_with_comm", .value = [](const R& a) -> Cell { return a.overlap.steps_with_comm; }, .in = kJsonForm},
    {"copy_ms", [](const R& a) -> Cell { return a.overlap.copy_ms; }},
    {"copy_overlapped_ms", [](const R& a) -> Cell { return a.overlap.copy_overlapped_ms; }},
    {"copy_overlapped_share", [](const R& a) -> Cell { return a.overlap.copy_overlapped_share; }},
    {"copy_overlapped_share_step_median",
     [](const R& a) -> Cell { return a.overlap.copy_overlapped_share_step_median; }},
    {.name = "steps_with_copy", .value = [](const R& a) -> Cell { return a.overlap.steps_with_copy; }, .in = kJsonForm},
    {.name = "summed_ms", .value = [](const R& a) -> Cell { return a.summed_ms; }, .in = kCsvForm},
    {.name = "gpu_busy_ms", .value = [](const R& a) -> Cell { return a.gpu_time_ms(); }, .in = kCsvForm},
};

using H = HtaCommOverlap;

// comp_comm_overlap_pctg: none without communication kernels.
constexpr TableColumn<H> kHtaOverlap[] = {
    {"communication_kernels", [](const H& o) -> Cell { return o.communication_kernels; }},
    {"communication_ms", [](const H& o) -> Cell { return o.communication_ms; }},
    {"computation_ms", [](const H& o) -> Cell { return o.computation_ms; }},
    {"overlap_ms", [](const H& o) -> Cell { return o.overlap_ms; }},
    {"comp_comm_overlap_pctg",
     [](const H& o) { return o.communication_kernels > 0 ? Cell(o.comp_comm_overlap_pctg) : Cell(); }},
    {"computation_only_ms", [](const H& o) -> Cell { return o.computation_only_ms(); }},
    {"communication_only_ms", [](const H& o) -> Cell { return o.communication_only_ms(); }},
};

}  // namespace

TableColumns<CategoryRow> category_columns() { return kCategories; }
TableColumns<KernelTableRow> kernel_columns() { return kKernels; }
TableColumns<StepTableRow> step_columns() {
  static const std::vector<TableColumn<StepTableRow>> columns = steps_columns();
  return columns;
}
TableColumns<FindingTableRow> finding_columns() { return kFindings; }
TableColumns<RankAnalysis> overlap_columns() { return kOverlap; }
TableColumns<HtaCommOverlap> hta_overlap_columns() { return kHtaOverlap; }

}  // namespace cuprobe
