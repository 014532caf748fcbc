#include "report/cross_rank_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "common/units.h"
#include "report/cross_rank_columns.h"
#include "report/text_table.h"

namespace cuprobe {
namespace {

constexpr std::size_t kKernelsShown = 3;  // the straggler's extra kernels listed

std::string matching_words(const CrossRank& t) {
  if (t.matching == "communicator")
    return "matched by communicator (the n-th call of a kernel on a process group, among its ranks)";
  return "matched by kernel name and communication stream order (the traces name no communicator)";
}

std::string alignment_line(const CrossRank& t) {
  std::string ref = t.reference_rank ? "rank " + std::to_string(*t.reference_rank) : "the first rank";
  if (t.matched_calls == 0)
    return "  clocks: not aligned (no collective call matched across ranks; " + matching_words(t) +
           "); each rank's own timestamps are used\n";
  std::string out = "  clocks: aligned on the ends of " + std::to_string(t.matched_calls) + " collective calls, " +
                    matching_words(t) + "; offsets are each rank's clock minus " + ref + "'s\n";
  std::string unaligned;
  for (std::size_t r = 0; r < t.ranks.size(); ++r) {
    if (!t.ranks[r].clock_aligned) unaligned += (unaligned.empty() ? "" : ", ") + rank_cell(t.ranks[r].rank, r);
  }
  if (!unaligned.empty())
    out += "  clocks: not aligned (no matched call links them to " + ref + "): rank " + unaligned + "\n";
  return out;
}

std::string ranks_table(const CrossRank& t) {
  TextTable table(text_headers(cross_rank_columns()));
  for (std::size_t r = 0; r < t.ranks.size(); ++r)
    table.add_row(text_cells(cross_rank_columns(), CrossRankTableRow{t.ranks[r], r}));
  return table.render("    ");
}

std::string calls_table(const CrossRank& t, std::size_t top) {
  std::vector<std::size_t> order(t.calls.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t.calls[a].others_wait_ms > t.calls[b].others_wait_ms; });
  if (order.size() > top) order.resize(top);
  const char* left_out = t.matching == "communicator" ? "stream_order" : "communicator";
  TextTable table(text_headers(collective_columns(), left_out));
  for (std::size_t i : order)
    table.add_row(text_cells(collective_columns(), CollectiveTableRow{t.calls[i], t}, left_out));
  return table.render("    ");
}

std::string straggler_text(const CrossRank& t) {
  if (!t.straggler) return "  straggler: none (no rank arrived last at a collective later than the median rank)\n";
  const StragglerAnalysis& s = *t.straggler;
  std::string held =
      s.last_arrivals == s.late_calls ? "" : " (" + std::to_string(s.late_calls) + " of them holding others up)";
  std::string out = "  straggler: rank " + rank_cell(s.rank, s.position) + ", last at " +
                    std::to_string(s.last_arrivals) + " calls" + held + ", typically " +
                    format_duration_ms(s.late_median_ms) + " after the median rank; costs every rank " +
                    format_duration_ms(s.cost_ms_per_step) + " per step (step " + format_duration_ms(s.step_ms_now) +
                    " -> " + format_duration_ms(s.step_ms_after) + " were it on time)\n";
  out += "    before its arrivals, per step against the median rank: GPU idle (host gaps) " +
         signed_ms(s.extra_idle_ms) + ", copies " + signed_ms(s.extra_copy_ms);
  for (std::size_t i = 0; i < s.extra_kernels_ms.size() && i < kKernelsShown; ++i)
    out += (i ? ", " : "; kernels ") + s.extra_kernels_ms[i].first + " " + signed_ms(s.extra_kernels_ms[i].second);
  return out + "\n";
}

}  // namespace

std::string cross_rank_text(const CrossRank& table, std::size_t top_calls) {
  std::string out = "across " + std::to_string(table.ranks.size()) + " ranks:\n";
  out += alignment_line(table);
  out +=
      "  per rank (busy: of the window; comm and wait: of GPU time; wait: in collectives until the last rank "
      "arrived; last at: calls it arrived last at):\n";
  out += ranks_table(table);
  if (!table.calls.empty()) {
    out += "  collective calls by the wait they caused (" + std::to_string(std::min(top_calls, table.calls.size())) +
           " of " + std::to_string(table.calls.size()) + ", aligned clocks):\n";
    out += calls_table(table, top_calls);
  }
  out += straggler_text(table);
  return out;
}

}  // namespace cuprobe
