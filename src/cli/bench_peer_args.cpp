#include "cli/bench_peer_args.h"

#include <cstdio>
#include <optional>

#include "cli/bench_backend.h"
#include "cli/bench_peer_flags.h"

namespace cuprobe {
namespace {

bool is_option(const std::string& w) { return w.size() > 1 && w[0] == '-'; }
bool is_url(const std::string& w) { return w.starts_with("http://") || w.starts_with("https://"); }

bool slo_word(const std::string& w) {
  std::size_t colon = w.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == w.size()) return false;
  std::string name = w.substr(0, colon);
  return (name == "ttft" || name == "tpot" || name == "e2e" || name == "e2el") &&
         w.find_first_not_of("0123456789.", colon + 1) == std::string::npos;
}

// KEY=VALUE (vLLM's --metadata and --header): never an option, a URL or a path-like word.
bool key_value_word(const std::string& w) {
  std::size_t eq = w.find('=');
  return eq != std::string::npos && eq > 0 && !is_option(w) && !is_url(w) && w.find('/') > eq;
}

// Whose parser the line is typed for, as plan_peer decides it: --result-format,
// else --backend, else SGLang's --output-file; otherwise vLLM's.
Peer line_peer(const std::vector<std::string>& words) {
  auto value_of = [&](const std::string& flag) {
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i] == flag && i + 1 < words.size()) return words[i + 1];
      if (words[i].starts_with(flag + "=")) return words[i].substr(flag.size() + 1);
    }
    return std::string();
  };
  const std::string format = value_of("--result-format");
  if (format == "vllm" || format == "sglang") return format == "vllm" ? Peer::kVllm : Peer::kSglang;
  if (std::optional<BackendInfo> b = find_backend(value_of("--backend"))) return b->peer;
  for (const std::string& w : words)
    if (w == "--output-file" || w.starts_with("--output-file=")) return Peer::kSglang;
  return Peer::kVllm;
}

// argparse's abbreviations: a unique prefix of one of the peer's own long flags
// stands for it (never a flag only cuprobe has: that one the parser then names,
// with the nearest spelling). A spelling bench knows is taken as typed.
std::string expand_prefix(const std::string& w, const std::vector<std::string>& known,
                          const std::vector<std::string>& peer_flags) {
  if (!w.starts_with("--") || w.size() < 4) return w;
  std::string name = w.substr(0, w.find('=')), rest = w.substr(name.size());
  for (const std::string& k : known)
    if (k == name) return w;
  std::string match;
  for (const std::string& k : peer_flags) {
    if (k == name) return w;
    if (k.starts_with(name)) {
      if (!match.empty()) return w;  // ambiguous: left to the parser's message
      match = k;
    }
  }
  return match.empty() ? w : match + rest;
}

}  // namespace

std::vector<std::string> normalize_bench_args(int argc, char** argv, const std::vector<std::string>& known) {
  std::vector<std::string> out;
  std::vector<std::string> words(argv, argv + argc);
  const std::vector<std::string>& peer_flags = peer_flag_names(line_peer(words));
  for (std::size_t i = 1; i < words.size(); ++i) words[i] = expand_prefix(words[i], known, peer_flags);
  const std::string program = words.empty() ? "cuprobe bench" : words[0];
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const bool has_next = i + 1 < words.size();
    if (w == "--goodput" && has_next) {
      out.push_back(w);
      out.push_back(words[++i]);
      while (i + 1 < words.size() && slo_word(words[i + 1])) out.back() += " " + words[++i];
    } else if ((w == "--metadata" || w == "--header") && has_next) {
      out.push_back(w);
      out.push_back(words[++i]);
      while (i + 1 < words.size() && key_value_word(words[i + 1])) {
        out.push_back(w);
        out.push_back(words[++i]);
      }
    } else if (w.starts_with("--save-result=") ||
               (w == "--save-result" && has_next && !is_option(words[i + 1]) && !is_url(words[i + 1]))) {
      std::string file = w == "--save-result" ? words[++i] : w.substr(14);
      std::fprintf(stderr,
                   "%s: --save-result FILE is deprecated, use --result-file FILE (--save-result is vLLM's flag)\n",
                   program.c_str());
      out.push_back("--result-file");
      out.push_back(file);
    } else if (w == "--profile" && (!has_next || (words[i + 1] != "sglang" && words[i + 1] != "vllm"))) {
      out.push_back("--profile=auto");
    } else {
      out.push_back(w);
    }
  }
  return out;
}

}  // namespace cuprobe
