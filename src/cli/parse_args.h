// Runs CLI11 with cuprobe's conventions: --help prints and exits 0, any usage
// error is one line on stderr and exit code 2.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cuprobe {

// Returns std::nullopt when the verb should go on; otherwise the exit code.
std::optional<int> parse_args(CLI::App& app, int argc, char** argv);

// `VERB [OPTIONS] -- CMD ARGS...`: everything after the first "--" is the command,
// untouched by the option parser, which sees only the first `own_argc` arguments.
struct CommandAfterDashes {
  int own_argc = 0;
  std::vector<std::string> command;
};
CommandAfterDashes split_at_dashes(int argc, char** argv);

}  // namespace cuprobe
