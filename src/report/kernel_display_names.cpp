#include "report/kernel_display_names.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

#include "report/kernel_display_name.h"

namespace cuprobe {
namespace {

// One template argument (or the kernel itself): its text, the last identifier of its
// qualified name ("base"), and its own template arguments.
struct Node {
  std::string text;
  std::string base;
  std::vector<Node> args;
};

std::string trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

// The index of the '>' closing the '<' at `open`, or npos.
std::size_t closing(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return c == '>' ? i : std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

Node parse(std::string_view text, int depth) {
  Node n;
  n.text = trim(text);
  std::string_view t = n.text;
  if (t.starts_with("void ")) t.remove_prefix(5);
  std::size_t lt = t.find('<'), paren = t.find('(');
  bool templated = lt != std::string_view::npos && (paren == std::string_view::npos || lt < paren) && lt > 0;
  std::string_view head = t.substr(0, templated ? lt : std::min(t.size(), paren));
  std::size_t colon = head.rfind("::");
  std::string_view last = colon == std::string_view::npos ? head : head.substr(colon + 2);
  n.base = !last.empty() && (std::isalpha(static_cast<unsigned char>(last.front())) || last.front() == '_') ? trim(last)
                                                                                                            : n.text;
  if (!templated || depth > 8) return n;
  std::size_t close = closing(t, lt);
  if (close == std::string_view::npos) return n;
  std::string_view inner = t.substr(lt + 1, close - lt - 1);
  int level = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= inner.size(); ++i) {
    char c = i < inner.size() ? inner[i] : ',';
    if (c == '<' || c == '(' || c == '[' || c == '{') ++level;
    if (c == '>' || c == ')' || c == ']' || c == '}') --level;
    if (c == ',' && level == 0) {
      n.args.push_back(parse(inner.substr(start, i - start), depth + 1));
      start = i + 1;
    }
  }
  return n;
}

bool named(const Node& n) {
  return !n.text.empty() && (std::isalpha(static_cast<unsigned char>(n.text.front())) || n.text.front() == '_');
}

// The parameter types in a name's last parameter list, without namespaces: the last lambda's
// ("...::{lambda(c10::BFloat16)#1}" -> "BFloat16", the dtype a copy kernel is instantiated for), else the
// function's ("foo(int, float*)" -> "int, float*").
std::string parameters(std::string_view text) {
  std::size_t open = text.rfind("{lambda(");
  open = open == std::string_view::npos ? text.rfind('(') : open + 7;
  if (open == std::string_view::npos) return {};
  int depth = 0;
  std::size_t close = open;
  for (; close < text.size(); ++close) {
    if (text[close] == '(' || text[close] == '<') ++depth;
    if ((text[close] == ')' || text[close] == '>') && --depth == 0) break;
  }
  if (close >= text.size()) return {};
  std::string_view inner = text.substr(open + 1, close - open - 1);
  std::string out;
  int level = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= inner.size(); ++i) {
    char c = i < inner.size() ? inner[i] : ',';
    if (c == '<' || c == '(') ++level;
    if (c == '>' || c == ')') --level;
    if (c != ',' || level != 0) continue;
    std::string_view param = inner.substr(start, i - start);
    std::size_t lt = param.find('<');
    std::string_view head = param.substr(0, lt);
    std::size_t colon = head.rfind("::");
    std::string p = trim(colon == std::string_view::npos ? param : param.substr(colon + 2));
    out += (out.empty() ? "" : ", ") + p;
    start = i + 1;
  }
  return out;
}

// Renders each node so that nodes of different text render differently where their template
// arguments allow, with as few arguments as that takes: the base, then (at the top, always) the first
// named argument as kernel_display_name shows it, then, while nodes of one base still render alike,
// the argument that tells most of them apart (named ones first), each rendered the same way.
std::vector<std::string> render_distinct(const std::vector<const Node*>& nodes, bool top) {
  static const Node kNone;
  std::vector<std::string> out(nodes.size());
  std::vector<std::map<std::size_t, std::string>> shown(nodes.size());  // per node: position -> rendering
  auto child = [&](std::size_t m, std::size_t p) -> const Node& {
    return p < nodes[m]->args.size() ? nodes[m]->args[p] : kNone;
  };
  // Shows position p for `group`: the children rendered apart where they differ, else their base.
  auto show = [&](const std::vector<std::size_t>& group, std::size_t p) {
    std::vector<const Node*> column;
    bool equal = true;
    for (std::size_t m : group) {
      column.push_back(&child(m, p));
      equal = equal && column.back()->text == column.front()->text;
    }
    std::vector<std::string> parts =
        equal ? std::vector<std::string>(group.size(), column.front()->base) : render_distinct(column, false);
    for (std::size_t k = 0; k < group.size(); ++k) shown[group[k]][p] = parts[k];
  };
  auto rendering = [&](std::size_t m) {
    std::string inner;
    for (const auto& [p, text] : shown[m]) {
      if (!text.empty()) inner += (inner.empty() ? "" : ", ") + text;
    }
    return inner.empty() ? nodes[m]->base : nodes[m]->base + "<" + inner + ">";
  };
  std::map<std::string, std::vector<std::size_t>> by_base;
  for (std::size_t i = 0; i < nodes.size(); ++i) by_base[nodes[i]->base].push_back(i);
  for (const auto& [base, members] : by_base) {
    std::size_t positions = 0;
    for (std::size_t m : members) positions = std::max(positions, nodes[m]->args.size());
    if (top) {
      for (std::size_t p = 0; p < positions; ++p) {
        if (!named(child(members.front(), p))) continue;
        show(members, p);
        break;
      }
    }
    // Split the members that still render alike, one argument at a time.
    std::vector<std::vector<std::size_t>> pending{members};
    while (!pending.empty()) {
      std::vector<std::size_t> group = std::move(pending.back());
      pending.pop_back();
      std::map<std::string, std::vector<std::size_t>> alike;
      for (std::size_t m : group) alike[rendering(m)].push_back(m);
      for (auto& [text, same] : alike) {
        std::map<std::string, int> texts;
        for (std::size_t m : same) texts[nodes[m]->text] += 1;
        if (texts.size() < 2) continue;
        std::size_t best = positions;
        std::size_t best_count = 1;
        bool best_named = false;
        for (std::size_t p = 0; p < positions; ++p) {
          if (shown[same.front()].count(p)) continue;
          std::map<std::string, int> values;
          for (std::size_t m : same) values[child(m, p).text] += 1;
          bool is_named = named(child(same.front(), p));
          bool better = values.size() > 1 && (best == positions || (is_named && !best_named) ||
                                              (is_named == best_named && values.size() > best_count));
          if (better) {
            best = p;
            best_count = values.size();
            best_named = is_named;
          }
        }
        if (best == positions) continue;  // alike in every argument: told apart below, or numbered
        show(same, best);
        pending.push_back(same);
      }
    }
    for (std::size_t m : members) out[m] = rendering(m);
    // Still alike but not the same: the parameter types where they differ (a lambda's dtype, an overload).
    std::map<std::string, std::vector<std::size_t>> alike;
    for (std::size_t m : members) alike[out[m]].push_back(m);
    for (const auto& [rendered, group] : alike) {
      std::map<std::string, int> details;
      for (std::size_t m : group) details[parameters(nodes[m]->text)] += 1;
      if (details.size() < 2) continue;
      for (std::size_t m : group) {
        std::string detail = "(" + parameters(nodes[m]->text) + ")";
        std::size_t lt = out[m].find('<');
        out[m].insert(lt == std::string::npos ? out[m].size() : lt, detail);
      }
    }
  }
  return out;
}

// Cut in the middle: the head says which kernel, the tail what tells it apart.
std::string fit(const std::string& s, std::size_t max_length) {
  if (s.size() <= max_length || max_length < 8) return s;
  std::size_t keep = max_length - 3;
  std::size_t head = keep / 2;
  return s.substr(0, head) + "..." + s.substr(s.size() - (keep - head));
}

}  // namespace

std::vector<std::string> unique_kernel_display_names(const std::vector<std::string>& full_names,
                                                     std::size_t max_length) {
  std::vector<std::string> out(full_names.size());
  std::map<std::string, std::vector<std::size_t>> by_short;
  for (std::size_t i = 0; i < full_names.size(); ++i) {
    out[i] = kernel_display_name(full_names[i], max_length);
    by_short[out[i]].push_back(i);
  }
  for (const auto& [short_name, members] : by_short) {
    std::map<std::string, std::size_t> distinct;  // full name -> its first index
    for (std::size_t m : members) distinct.try_emplace(full_names[m], m);
    if (distinct.size() < 2) continue;
    std::vector<Node> trees;
    std::vector<std::size_t> firsts;
    for (const auto& [full, first] : distinct) {
      std::string cleaned = full;
      for (std::size_t at; (at = cleaned.find("(anonymous namespace)::")) != std::string::npos;) cleaned.erase(at, 23);
      trees.push_back(parse(cleaned, 0));
      firsts.push_back(first);
    }
    std::vector<const Node*> nodes;
    for (const auto& t : trees) nodes.push_back(&t);
    std::vector<std::string> rendered = render_distinct(nodes, true);
    std::map<std::string, std::string> by_full;
    for (std::size_t k = 0; k < firsts.size(); ++k) by_full[full_names[firsts[k]]] = fit(rendered[k], max_length);
    for (std::size_t m : members) out[m] = by_full[full_names[m]];
  }
  // What templates could not tell apart (or the cut made alike) is numbered, in order of appearance.
  std::map<std::string, std::map<std::string, int>> seen;  // display -> full -> number
  for (std::size_t i = 0; i < full_names.size(); ++i) {
    auto& fulls = seen[out[i]];
    auto [it, fresh] = fulls.try_emplace(full_names[i], static_cast<int>(fulls.size()) + 1);
    (void)fresh;
    if (it->second > 1) out[i] += " (" + std::to_string(it->second) + ")";
  }
  return out;
}

std::vector<std::string> rank_kernel_display_names(const RankAnalysis& rank) {
  std::vector<std::string> full;
  full.reserve(rank.kernels.size());
  for (const auto& k : rank.kernels) full.push_back(k.name);
  return unique_kernel_display_names(full);
}

const RankAnalysis* finding_rank(const AnalyzeReport& report, const Finding& f) {
  if (report.ranks.size() == 1) return &report.ranks.front();
  for (const auto& a : report.ranks) {
    if (a.rank && f.rank && *a.rank == *f.rank) return &a;
  }
  return nullptr;
}

std::vector<std::string> finding_kernel_display_names(const AnalyzeReport& report, const Finding& f) {
  std::vector<std::string> out;
  if (f.kernels.empty()) return out;
  const RankAnalysis* a = finding_rank(report, f);
  std::vector<std::string> rows = a ? rank_kernel_display_names(*a) : std::vector<std::string>{};
  for (const auto& k : f.kernels) {
    std::string shown;
    for (std::size_t i = 0; a && i < a->kernels.size() && shown.empty(); ++i) {
      if (a->kernels[i].name == k) shown = rows[i];
    }
    out.push_back(shown.empty() ? kernel_display_name(k) : shown);
  }
  return out;
}

}  // namespace cuprobe
