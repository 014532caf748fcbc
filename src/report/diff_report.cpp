#include "report/diff_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/analyze_json.h"
#include "report/analyze_table_columns.h"
#include "report/analyze_tables_json.h"
#include "report/analyze_text.h"
#include "report/csv_table.h"
#include "report/kernel_display_names.h"
#include "report/text_table.h"

namespace cuprobe {

std::string slower_or_faster(double a_ms, double b_ms) {
  if (!(a_ms > 0) || !(b_ms > 0)) return {};
  double ratio = std::max(a_ms, b_ms) / std::min(a_ms, b_ms);
  char buf[32];
  std::snprintf(buf, sizeof buf, ratio < 10 ? "%.2f" : "%.1f", ratio);
  std::string text = buf;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  if (text == "1") return "same";
  return text + "\u00d7 " + (b_ms > a_ms ? "slower" : "faster");
}

namespace {

std::string signed_ms(double ms) {
  std::string out(1, ms >= 0 ? '+' : '-');
  out += format_duration_ms(std::abs(ms));
  return out;
}

std::string change_ratio(const DiffChange& c) {
  if (c.a_ms <= 0 && c.b_ms <= 0) return "-";  // in both, with no time per step (median 0)
  if (c.a_ms <= 0) return "new";
  if (c.b_ms <= 0) return "gone";
  return slower_or_faster(c.a_ms, c.b_ms);
}

// "  (1.86x slower)" after "65.8 ms -> 122 ms"; nothing when a side has no time.
std::string verdict(double a_ms, double b_ms) {
  std::string v = slower_or_faster(a_ms, b_ms);
  return v.empty() ? std::string() : "  (" + v + ")";
}

// HTA's window of one side of one rank, in words.
std::string window_words(const HtaWindowInfo& w) {
  if (w.cut)
    return "without its last step (" + w.last_step + ", " + std::to_string(w.activities_left_out) + " activities)";
  if (w.keep_all) return "the whole trace (--hta-window all)";
  return "the whole trace (fewer than two ProfilerSteps: HTA keeps it all too)";
}

// "A: without its last step (...)", or per rank where the ranks' windows differ.
std::string side_windows(const std::vector<DiffHtaRank>& rows, bool a_side) {
  std::vector<std::string> words;
  for (const auto& r : rows) words.push_back(window_words(a_side ? r.a_window : r.b_window));
  bool same = std::all_of(words.begin(), words.end(), [&](const std::string& w) { return w == words.front(); });
  if (same) return words.front();
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) out += (i ? "; rank " : "rank ") + rows[i].rank + " " + words[i];
  return out;
}

std::string overlap_pctg(bool has, const HtaCommOverlap& o) {
  return has ? format_fixed(o.comp_comm_overlap_pctg, 2) + "%" : "-";
}

// HTA's get_comm_comp_overlap and communication time per paired rank, as `analyze` prints them (not per step).
std::string hta_text(const std::vector<DiffHtaRank>& rows) {
  if (rows.empty()) return {};
  std::string out =
      "\ncommunication beside computation (as HTA: NCCL kernels by name, the rank's GPUs together; totals over each "
      "side's HTA window, not per step as above; '-': no NCCL kernels):\n";
  TextTable table(
      {"rank", ">communication A", ">communication B", ">B against A", ">comp/comm overlap A", ">comp/comm overlap B"});
  for (const auto& r : rows) {
    std::string change = r.a_has && r.b_has ? slower_or_faster(r.a.communication_ms, r.b.communication_ms) : "";
    table.add_row({r.rank, r.a_has ? format_duration_ms(r.a.communication_ms) : "-",
                   r.b_has ? format_duration_ms(r.b.communication_ms) : "-", change.empty() ? "-" : change,
                   overlap_pctg(r.a_has, r.a), overlap_pctg(r.b_has, r.b)});
  }
  out += table.render("  ");
  std::string a = side_windows(rows, true), b = side_windows(rows, false);
  out += a == b ? "  HTA's window, A and B: " + a + "\n"
                : "  HTA's window, A: " + a + "; B: " + b +
                      " (the windows differ: the totals cover different parts of the runs)\n";
  return out;
}

}  // namespace

std::string gate_line(const DiffGate& g) {
  std::string what = g.metric == "step" ? "step time" : "GPU time per step";
  std::string change = (g.change_pct >= 0 ? "+" : "") + format_fixed(g.change_pct, 1) + "%";
  return "gate: " + what + " " + format_duration_ms(g.a_ms) + " -> " + format_duration_ms(g.b_ms) + ", " + change +
         " (limit +" + format_fixed(g.limit_pct, g.limit_pct == std::floor(g.limit_pct) ? 0 : 1) +
         "%): " + (g.tripped ? "FAILED" : "passed") + "\n";
}

std::string diff_text(const DiffReport& d, const std::string& a_label, const std::string& b_label, std::size_t top,
                      const std::optional<DiffGate>& gate) {
  std::string unit =
      d.basis == "step" ? "per step (median)" : "per trace (no steps on one side: whole traces compared)";
  std::string out = "A: " + a_label + "\nB: " + b_label + "\n\n";
  out += "GPU time " + unit + ": " + format_duration_ms(d.a_ms) + " -> " + format_duration_ms(d.b_ms) +
         verdict(d.a_ms, d.b_ms) + "\n";
  out += (d.basis == "step" ? "step time (median, GPU clock): " : "trace window:       ") +
         format_duration_ms(d.a_wall_ms) + " -> " + format_duration_ms(d.b_wall_ms) +
         verdict(d.a_wall_ms, d.b_wall_ms) + "\n";
  if (!d.pairing.empty()) {
    out += "ranks paired " + d.pairing + (d.pairing_note.empty() ? "" : ": " + d.pairing_note) + "\n";
  }
  out += "\nwhat moved (" + std::string(d.basis == "step" ? "GPU time per step, median" : "GPU time") +
         ", largest change first):\n";
  TextTable table({"", "name", ">A", ">B", ">change", ">B against A"});
  // Kernels are matched by full name; rows show names unique among all the diff's rows.
  std::vector<std::string> full;
  for (const auto& c : d.changes) full.push_back(c.name);  // all rows: names do not depend on --top
  std::vector<std::string> shown_names = unique_kernel_display_names(full);
  std::size_t shown = 0;
  for (const auto& c : d.changes) {
    if (shown >= top) break;
    const std::string& display = shown_names[shown++];
    std::string name = c.kind == "category" ? c.name : display + " (" + c.category + ")";
    table.add_row({c.kind, name, format_duration_ms(c.a_ms), format_duration_ms(c.b_ms), signed_ms(c.delta_ms()),
                   change_ratio(c)});
  }
  out += table.render();
  auto list = [&](const char* heading, const std::vector<Finding>& findings) {
    if (findings.empty()) return;
    out += std::string("\n") + heading + "\n";
    for (const auto& f : findings) {
      out += "  [" + f.severity + "] " + f.id + (f.rank ? " (rank " + std::to_string(*f.rank) + ")" : "") + ": " +
             f.title + "\n";
    }
  };
  out += hta_text(d.hta);
  list("findings gone in B:", d.disappeared);
  list("findings new in B:", d.appeared);
  list("findings in both (as in B):", d.kept);
  if (gate) out += "\n" + gate_line(*gate);
  return out;
}

nlohmann::ordered_json diff_hta_json(const DiffReport& d) {
  using json = nlohmann::ordered_json;
  json hta = json::array();
  for (const auto& r : d.hta) {
    auto side = [](bool has, const HtaCommOverlap& o, const HtaWindowInfo& w) {
      return has ? json{{"hta_window", hta_window_json(w)}, {"hta_overlap", json_row(hta_overlap_columns(), o)}}
                 : json(nullptr);
    };
    hta.push_back({{"rank", r.rank}, {"a", side(r.a_has, r.a, r.a_window)}, {"b", side(r.b_has, r.b, r.b_window)}});
  }
  return hta;
}

nlohmann::ordered_json diff_json(const DiffReport& d, const std::vector<std::string>& a_files,
                                 const std::vector<std::string>& b_files, std::size_t top,
                                 const std::optional<DiffGate>& gate) {
  using json = nlohmann::ordered_json;
  json j;
  j["schema"] = "cuprobe.diff/1";
  j["a"] = {{"files", a_files}};
  j["b"] = {{"files", b_files}};
  j["basis"] = d.basis;
  j["step_ms"] = {{"a", d.a_ms}, {"b", d.b_ms}, {"ratio", d.ratio()}};
  j["step_wall_ms"] = {{"a", d.a_wall_ms}, {"b", d.b_wall_ms}, {"ratio", d.wall_ratio()}};
  j["step_ms"]["change"] = slower_or_faster(d.a_ms, d.b_ms);  // "1.86x slower": B against A
  j["step_wall_ms"]["change"] = slower_or_faster(d.a_wall_ms, d.b_wall_ms);
  j["pairing"] = {{"how", d.pairing}, {"note", d.pairing_note}};
  json changes = json::array();
  std::vector<std::string> full;
  for (const auto& c : d.changes) full.push_back(c.name);  // all rows: names do not depend on --top
  std::vector<std::string> names = unique_kernel_display_names(full);
  std::size_t shown = 0;
  for (const auto& c : d.changes) {
    if (shown++ >= top) break;
    json row = {{"kind", c.kind}, {"name", c.name}};
    if (c.kind == "kernel") row["category"] = c.category;
    row["a_ms"] = c.a_ms;
    row["b_ms"] = c.b_ms;
    row["delta_ms"] = c.delta_ms();
    row["ratio"] = c.b_ms > 0 ? json(c.a_ms / c.b_ms) : json(nullptr);
    row["change"] = change_ratio(c);
    if (c.kind == "kernel") row["display_name"] = names[shown - 1];
    changes.push_back(std::move(row));
  }
  j["changes"] = std::move(changes);
  auto findings = [](const std::vector<Finding>& list) {
    json arr = json::array();
    for (const auto& f : list) arr.push_back(finding_json(f));
    return arr;
  };
  j["findings"] = {
      {"appeared", findings(d.appeared)}, {"disappeared", findings(d.disappeared)}, {"kept", findings(d.kept)}};
  j["ranks"] = {{"a", d.a_ranks}, {"b", d.b_ranks}};
  j["hta_overlap"] = diff_hta_json(d);
  if (gate) {
    j["gate"] = {{"metric", gate->metric}, {"limit_pct", gate->limit_pct},   {"a_ms", gate->a_ms},
                 {"b_ms", gate->b_ms},     {"change_pct", gate->change_pct}, {"tripped", gate->tripped}};
  }
  return j;
}

std::vector<std::pair<std::string, std::string>> diff_csv(const DiffReport& d) {
  CsvText changes({"kind", "name", "category", "display_name", "a_ms", "b_ms", "delta_ms", "ratio", "change"});
  std::vector<std::string> full;
  for (const auto& c : d.changes) full.push_back(c.name);
  std::vector<std::string> names = unique_kernel_display_names(full);
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    const DiffChange& c = d.changes[i];
    bool kernel = c.kind == "kernel";
    changes.row({c.kind, c.name, kernel ? c.category : "", kernel ? names[i] : "", csv_number(c.a_ms),
                 csv_number(c.b_ms), csv_number(c.delta_ms()), c.b_ms > 0 ? csv_number(c.a_ms / c.b_ms) : "",
                 change_ratio(c)});
  }
  CsvText hta(csv_header(hta_overlap_columns(), {"rank", "side", "window", "last_step"}));
  for (const auto& r : d.hta) {
    auto side = [&](const char* name, bool has, const HtaCommOverlap& o, const HtaWindowInfo& w) {
      if (has) hta.row(csv_row(hta_overlap_columns(), o, {r.rank, name, w.keep_all ? "all" : "default", w.last_step}));
    };
    side("a", r.a_has, r.a, r.a_window);
    side("b", r.b_has, r.b, r.b_window);
  }
  return {{"changes.csv", changes.text}, {"hta_overlap.csv", hta.text}};
}

}  // namespace cuprobe
