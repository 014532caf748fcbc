#include "analysis/diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "common/error.h"

namespace cuprobe {
namespace {

bool all_have_steps(const AnalyzeReport& r) {
  return !r.ranks.empty() &&
         std::all_of(r.ranks.begin(), r.ranks.end(), [](const RankAnalysis& a) { return !a.steps.steps.empty(); });
}

struct Side {
  double gpu_ms = 0, wall_ms = 0;
  std::map<std::string, double> categories;
  std::map<std::string, std::pair<double, std::string>> kernels;  // name -> (ms, category)
};

// Per-step medians (or per-trace totals), averaged over ranks.
Side summarize(const AnalyzeReport& r, bool per_step) {
  Side s;
  double n = static_cast<double>(std::max<std::size_t>(1, r.ranks.size()));
  for (const auto& a : r.ranks) {
    s.gpu_ms += (per_step ? a.steps.gpu_median_ms : a.gpu_busy_ms) / n;
    s.wall_ms += (per_step ? a.steps.median_ms : a.window_ms) / n;
    for (const auto& c : a.categories) {
      s.categories[std::string(category_name(c.category))] += (per_step ? c.per_step_median_ms : c.time_ms) / n;
    }
    for (const auto& k : a.kernels) {
      auto& entry = s.kernels[k.name];
      entry.first += (per_step ? k.per_step_median_ms : k.time_ms) / n;
      entry.second = std::string(category_name(k.category));
    }
  }
  return s;
}

std::string rank_label(const RankAnalysis& r, std::size_t index) {
  return r.rank ? "rank " + std::to_string(*r.rank) : "rank #" + std::to_string(index);
}

// Pairs the ranks of both sides; `b_to_a` maps B's rank ids onto A's (one with one: B's only rank onto A's).
void pair_ranks(const AnalyzeReport& a, const AnalyzeReport& b, DiffReport& d, std::map<int, int>& b_to_a) {
  if (a.ranks.size() == 1 && b.ranks.size() == 1) {
    d.pairing = "one with one";
    if (a.ranks[0].rank || b.ranks[0].rank)
      d.pairing_note = rank_label(a.ranks[0], 0) + " (A) with " + rank_label(b.ranks[0], 0) + " (B)";
    b_to_a[b.ranks[0].rank.value_or(-1)] = a.ranks[0].rank.value_or(-1);
    return;
  }
  if (a.ranks.size() > 1 && b.ranks.size() > 1) {
    d.pairing = "by rank id";
    std::vector<std::string> alone;
    for (std::size_t i = 0; i < a.ranks.size(); ++i) {
      bool found =
          std::any_of(b.ranks.begin(), b.ranks.end(), [&](const RankAnalysis& r) { return r.rank == a.ranks[i].rank; });
      if (!found) alone.push_back(rank_label(a.ranks[i], i) + " only in A");
    }
    for (std::size_t i = 0; i < b.ranks.size(); ++i) {
      bool found =
          std::any_of(a.ranks.begin(), a.ranks.end(), [&](const RankAnalysis& r) { return r.rank == b.ranks[i].rank; });
      if (!found) alone.push_back(rank_label(b.ranks[i], i) + " only in B");
    }
    for (const auto& s : alone) d.pairing_note += (d.pairing_note.empty() ? "" : ", ") + s;
    return;
  }
  d.pairing = "averaged";
  d.pairing_note = std::to_string(a.ranks.size()) + " rank(s) in A, " + std::to_string(b.ranks.size()) +
                   " in B: per-step figures averaged over each side's ranks";
}

// The rank of B that goes with A's rank i: the only one, one with one; else the same rank id (by position when neither
// side has ids).
std::optional<std::size_t> partner(const AnalyzeReport& a, const AnalyzeReport& b, std::size_t i) {
  if (a.ranks.size() == 1 && b.ranks.size() == 1) return 0;
  const std::optional<int>& id = a.ranks[i].rank;
  for (std::size_t j = 0; j < b.ranks.size(); ++j) {
    const std::optional<int>& other = b.ranks[j].rank;
    if (id && other ? *id == *other : !id && !other && i == j) return j;
  }
  return std::nullopt;
}

// HTA's overlap of the paired ranks where either side ran NCCL kernels (analyze's figures, taken as they are).
std::vector<DiffHtaRank> hta_ranks(const AnalyzeReport& a, const AnalyzeReport& b) {
  std::vector<DiffHtaRank> out;
  for (std::size_t i = 0; i < a.ranks.size(); ++i) {
    std::optional<std::size_t> j = partner(a, b, i);
    if (!j) continue;
    const RankAnalysis &ra = a.ranks[i], &rb = b.ranks[*j];
    DiffHtaRank r;
    r.a_has = ra.hta_overlap.communication_kernels > 0;
    r.b_has = rb.hta_overlap.communication_kernels > 0;
    if (!r.a_has && !r.b_has) continue;
    std::string id_a = std::to_string(ra.rank.value_or(static_cast<int>(i)));
    std::string id_b = std::to_string(rb.rank.value_or(static_cast<int>(*j)));
    r.rank = id_a == id_b ? id_a : id_a + " (A) / " + id_b + " (B)";
    r.a = ra.hta_overlap;
    r.b = rb.hta_overlap;
    r.a_window = ra.hta_window;
    r.b_window = rb.hta_window;
    out.push_back(std::move(r));
  }
  return out;
}

std::string finding_key(const Finding& f, const std::map<int, int>& rank_map) {
  std::string rank;
  if (f.rank) {
    auto it = rank_map.find(*f.rank);
    rank = std::to_string(it == rank_map.end() ? *f.rank : it->second);
  }
  return f.id + "#" + rank;
}

}  // namespace

DiffReport diff_reports(const AnalyzeReport& a, const AnalyzeReport& b) {
  DiffReport d;
  bool per_step = all_have_steps(a) && all_have_steps(b);
  d.basis = per_step ? "step" : "trace";
  Side sa = summarize(a, per_step), sb = summarize(b, per_step);
  d.a_ms = sa.gpu_ms;
  d.b_ms = sb.gpu_ms;
  d.a_wall_ms = sa.wall_ms;
  d.b_wall_ms = sb.wall_ms;
  d.a_ranks = a.ranks.size();
  d.b_ranks = b.ranks.size();

  std::map<std::string, DiffChange> categories;
  for (const auto& [name, ms] : sa.categories) categories[name] = {"category", name, name, ms, 0};
  for (const auto& [name, ms] : sb.categories) {
    auto& c = categories.try_emplace(name, DiffChange{"category", name, name, 0, 0}).first->second;
    c.b_ms = ms;
  }
  std::map<std::string, DiffChange> kernels;
  for (const auto& [name, v] : sa.kernels) kernels[name] = {"kernel", name, v.second, v.first, 0};
  for (const auto& [name, v] : sb.kernels) {
    auto& k = kernels.try_emplace(name, DiffChange{"kernel", name, v.second, 0, 0}).first->second;
    k.b_ms = v.first;
  }
  for (auto& [name, c] : categories) d.changes.push_back(c);
  for (auto& [name, k] : kernels) d.changes.push_back(k);
  std::stable_sort(d.changes.begin(), d.changes.end(), [](const DiffChange& x, const DiffChange& y) {
    return std::fabs(x.delta_ms()) > std::fabs(y.delta_ms());
  });

  std::map<int, int> b_to_a;
  pair_ranks(a, b, d, b_to_a);
  const std::map<int, int> same;
  std::map<std::string, const Finding*> in_a, in_b;
  for (const auto& f : a.findings) in_a.emplace(finding_key(f, same), &f);
  for (const auto& f : b.findings) in_b.emplace(finding_key(f, b_to_a), &f);
  for (const auto& f : a.findings) {
    if (!in_b.count(finding_key(f, same))) d.disappeared.push_back(f);
  }
  for (const auto& f : b.findings) {
    (in_a.count(finding_key(f, b_to_a)) ? d.kept : d.appeared).push_back(f);
  }
  d.hta = hta_ranks(a, b);
  return d;
}

DiffGate evaluate_gate(const DiffReport& d, const std::string& metric, double limit_pct) {
  DiffGate g;
  g.metric = metric;
  g.limit_pct = limit_pct;
  g.a_ms = metric == "step" ? d.a_wall_ms : d.a_ms;
  g.b_ms = metric == "step" ? d.b_wall_ms : d.b_ms;
  if (!(g.a_ms > 0)) {
    throw Error(std::string("diff: A has no ") + (metric == "step" ? "step time" : "GPU time") +
                " to compare against; the gate cannot decide");
  }
  g.change_pct = (g.b_ms - g.a_ms) / g.a_ms * 100.0;
  g.tripped = g.change_pct > limit_pct;
  return g;
}

}  // namespace cuprobe
