#include "report/cross_rank_columns.h"

#include <cmath>
#include <cstdio>

#include "common/units.h"

namespace cuprobe {
namespace {

using Cell = TableCell;
using Json = nlohmann::ordered_json;
using R = CrossRankTableRow;
using C = CollectiveTableRow;

Cell rank_value(const std::optional<int>& rank) { return rank ? Cell(std::int64_t{*rank}) : Cell(); }

// The CSV's clock_aligned ("true", "false") ends the row; the JSON's (a boolean) follows clock_residual_us.
constexpr TableColumn<R> kClockAligned = {
    .name = "clock_aligned",
    .value = [](const R& r) -> Cell { return r.rank.clock_aligned ? "true" : "false"; },
    .json = [](const R& r) { return Json(r.rank.clock_aligned); }};

// The text table's columns, by text_at: rank, step, steps, busy, comm, wait, clock offset, residual, last at,
// late (sum), file.
constexpr TableColumn<R> kRanks[] = {
    {.name = "rank",
     .value = [](const R& r) { return rank_value(r.rank.rank); },
     .text_header = "rank",
     .text = [](const R& r) { return rank_cell(r.rank.rank, r.position); },
     .text_at = 1},
    {.name = "file",
     .value = [](const R& r) -> Cell { return r.rank.file; },
     .text_header = "file",
     .text = [](const R& r) { return r.rank.file; },
     .text_at = 11},
    {.name = "step_ms",
     .value = [](const R& r) -> Cell { return r.rank.step_ms; },
     .text_header = ">step",
     .text = [](const R& r) { return format_duration_ms(r.rank.step_ms); },
     .text_at = 2},
    {.name = "steps",
     .value = [](const R& r) -> Cell { return r.rank.steps; },
     .text_header = ">steps",
     .text = [](const R& r) { return std::to_string(r.rank.steps); },
     .text_at = 3},
    {.name = "busy_share",
     .value = [](const R& r) -> Cell { return r.rank.busy_share; },
     .text_header = ">busy",
     .text = [](const R& r) { return format_percent(r.rank.busy_share); },
     .text_at = 4},
    {.name = "communication_share",
     .value = [](const R& r) -> Cell { return r.rank.communication_share; },
     .text_header = ">comm",
     .text = [](const R& r) { return format_percent(r.rank.communication_share); },
     .text_at = 5},
    {"wait_ms", [](const R& r) -> Cell { return r.rank.wait_ms; }},
    {.name = "wait_share",
     .value = [](const R& r) -> Cell { return r.rank.wait_share; },
     .text_header = ">wait",
     .text = [](const R& r) { return format_percent(r.rank.wait_share); },
     .text_at = 6},
    {.name = "clock_offset_ms",
     .value = [](const R& r) -> Cell { return r.rank.clock_offset_ms; },
     .text_header = ">clock offset",
     .text = [](const R& r) { return signed_ms(r.rank.clock_offset_ms); },
     .text_at = 7},
    {.name = "clock_residual_us",
     .value = [](const R& r) -> Cell { return r.rank.clock_residual_us; },
     .text_header = ">residual",
     .text =
         [](const R& r) {
           char residual[32];
           std::snprintf(residual, sizeof residual, "%.1f us", r.rank.clock_residual_us);
           return std::string(residual);
         },
     .text_at = 8},
    only(kClockAligned, kJsonForm),
    {.name = "last_arrivals",
     .value = [](const R& r) -> Cell { return r.rank.last_arrivals; },
     .text_header = ">last at",
     .text = [](const R& r) { return std::to_string(r.rank.last_arrivals); },
     .text_at = 9},
    {.name = "late_ms",
     .value = [](const R& r) -> Cell { return r.rank.late_ms; },
     .text_header = ">late (sum)",
     .text = [](const R& r) { return format_duration_ms(r.rank.late_ms); },
     .text_at = 10},
    only(kClockAligned, kCsvForm),
};

// The CSV's communicator (empty without one) and ranks follow the JSON's columns; the JSON's (null without one)
// come after the name. The text shows the communicator, or the stream order where calls are matched by it.
constexpr TableColumn<C> kCommunicator = {
    .name = "communicator",
    .value = [](const C& c) { return c.call.communicator.empty() ? Cell() : Cell(c.call.communicator); },
    .text_header = "communicator",
    .text = [](const C& c) { return c.call.communicator; },
    .text_at = 2};
constexpr TableColumn<C> kCallRanks = {.name = "ranks",
                                       .value = [](const C& c) -> Cell { return c.call.ranks; },
                                       .text_header = ">ranks",
                                       .text = [](const C& c) { return std::to_string(c.call.ranks); },
                                       .text_at = 3};

// The text table's columns, by text_at: collective, communicator or stream, ranks, call, last rank, late by,
// others waited, longest wait.
constexpr TableColumn<C> kCalls[] = {
    {.name = "name",
     .value = [](const C& c) -> Cell { return c.call.name; },
     .text_header = "collective",
     .text = [](const C& c) { return c.call.name.size() > 60 ? c.call.name.substr(0, 57) + "..." : c.call.name; },
     .text_at = 1},
    only(kCommunicator, kJsonForm | kTextForm),
    {.name = "stream_order",
     .value = [](const C& c) -> Cell { return std::int64_t{c.call.stream_order}; },
     .text_header = ">stream",
     .text = [](const C& c) { return std::to_string(c.call.stream_order); },
     .text_at = 2},
    only(kCallRanks, kJsonForm | kTextForm),
    {.name = "call",
     .value = [](const C& c) -> Cell { return c.call.call; },
     .text_header = ">call",
     .text = [](const C& c) { return std::to_string(c.call.call); },
     .text_at = 4},
    {.name = "last_rank",
     .value = [](const C& c) { return rank_value(c.table.ranks[c.call.last].rank); },
     .text_header = ">last rank",
     .text = [](const C& c) { return rank_cell(c.table.ranks[c.call.last].rank, c.call.last); },
     .text_at = 5},
    {.name = "late_ms",
     .value = [](const C& c) -> Cell { return c.call.late_ms; },
     .text_header = ">late by",
     .text = [](const C& c) { return format_duration_ms(c.call.late_ms); },
     .text_at = 6},
    {"saving_ms", [](const C& c) -> Cell { return c.call.saving_ms; }},
    {.name = "others_wait_ms",
     .value = [](const C& c) -> Cell { return c.call.others_wait_ms; },
     .text_header = ">others waited",
     .text = [](const C& c) { return format_duration_ms(c.call.others_wait_ms); },
     .text_at = 7},
    {.name = "max_wait_ms",
     .value = [](const C& c) -> Cell { return c.call.max_wait_ms; },
     .text_header = ">longest wait",
     .text = [](const C& c) { return format_duration_ms(c.call.max_wait_ms); },
     .text_at = 8},
    only(kCommunicator, kCsvForm),
    only(kCallRanks, kCsvForm),
    {.name = "matching", .value = [](const C& c) -> Cell { return c.table.matching; }, .in = kCsvForm},
};

}  // namespace

std::string rank_cell(const std::optional<int>& rank, std::size_t position) {
  return std::to_string(rank.value_or(static_cast<int>(position)));
}

std::string signed_ms(double ms) {
  char buf[48];
  if (std::abs(ms) < 1.0)
    std::snprintf(buf, sizeof buf, "%+.1f us", ms * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%+.3f ms", ms);
  return buf;
}

TableColumns<CrossRankTableRow> cross_rank_columns() { return kRanks; }
TableColumns<CollectiveTableRow> collective_columns() { return kCalls; }

}  // namespace cuprobe
