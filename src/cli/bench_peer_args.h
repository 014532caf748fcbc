// bench's command line as the peers type it, made into one CLI11 can parse
// (before parsing; nothing is dropped):
// - vLLM takes several words after `--goodput ttft:200 tpot:50`, `--metadata
//   k=v k2=v2` and `--header k=v k2=v2` (SGLang's --header too): each word of
//   that shape becomes its own option, so the URL may follow them;
// - `--save-result` is vLLM's flag; cuprobe's old `--save-result FILE` (a next
//   word that is neither an option nor an http(s):// URL, or `--save-result=FILE`)
//   becomes `--result-file FILE`, with one deprecation line on stderr;
// - `--profile` alone (both peers' flag) becomes `--profile auto`: the server
//   kind then comes from --backend;
// - a long option abbreviated to a unique prefix of one of the peer's own flags
//   (argparse's allow_abbrev, which both peers have: SGLang documents
//   `--num-prompt 10 --random-input 1024`) is written out; the peer is the one
//   whose rules apply (--result-format, --backend, --output-file; else vLLM), and
//   a prefix of a flag only cuprobe has is left to the parser's "unknown option"
//   (`--no-stream` is vLLM's own flag, never `--no-stream-options`).
#pragma once

#include <string>
#include <vector>

namespace cuprobe {

// `argv[0]` is kept (it names the verb in the deprecation line); `known`: every
// long spelling bench declares ("--num-prompts", ...).
std::vector<std::string> normalize_bench_args(int argc, char** argv, const std::vector<std::string>& known);

}  // namespace cuprobe
