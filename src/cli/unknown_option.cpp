#include "cli/unknown_option.h"

#include <algorithm>
#include <cctype>

namespace cuprobe {
namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and
// adjacent transpositions each cost 1.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

bool is_option_token(const std::string& t) {
  return t.size() > 1 && t[0] == '-' && t != "--" && !std::isdigit(static_cast<unsigned char>(t[1])) && t[1] != '.';
}

std::string option_name(const std::string& token) { return token.substr(0, token.find('=')); }

}  // namespace

std::string nearest_option(const std::string& typed, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& k : known) {
    std::size_t dist = edit_distance(typed, k);
    if (best.empty() || dist < best_distance) {
      best = k;
      best_distance = dist;
    }
  }
  std::size_t allowed = std::max<std::size_t>(2, typed.size() / 3);
  return !best.empty() && best_distance <= allowed && best_distance > 0 ? best : std::string();
}

std::vector<std::string> option_spellings(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); })) {
    for (const std::string& l : o->get_lnames()) out.push_back("--" + l);
    for (const std::string& s : o->get_snames()) out.push_back("-" + s);
  }
  return out;
}

std::string unexpected_arguments_message(const std::vector<std::string>& extras,
                                         const std::vector<std::string>& known) {
  if (extras.empty()) return "unexpected arguments";
  auto first = std::find_if(extras.begin(), extras.end(), is_option_token);
  std::string line;
  if (first != extras.end()) {
    std::string name = option_name(*first);
    line = "unknown option " + name;
    if (std::string hint = nearest_option(name, known); !hint.empty()) line += "; did you mean " + hint + "?";
  } else {
    first = extras.begin();
    line = "unexpected argument '" + *first + "'";
  }
  // The word after an unknown option is most likely its value: not named again.
  auto value = first + 1;
  bool skip_value = is_option_token(*first) && first->find('=') == std::string::npos && value != extras.end() &&
                    !is_option_token(*value);
  std::string rest;
  for (auto it = extras.begin(); it != extras.end(); ++it) {
    if (it != first && !(skip_value && it == value)) rest += (rest.empty() ? "" : " ") + *it;
  }
  if (!rest.empty()) line += " (also not expected: " + rest + ")";
  return line;
}

}  // namespace cuprobe
