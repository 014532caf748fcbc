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

// A verb's three steps: `declare` its flags on `app`, parse the command line,
// then run(plan(flags)): plan checks and resolves every flag before anything runs.
template <class Flags, class PlanFn, class RunFn>
int declare_plan_run(CLI::App& app, int argc, char** argv, void (*declare)(CLI::App&, Flags&), PlanFn plan, RunFn run) {
  Flags flags;
  declare(app, flags);
  if (auto code = parse_args(app, argc, argv)) return *code;
  return run(plan(flags));
}

// "a,b,,c" -> {"a", "b", "c"}: a list of files given as one argument (one per rank).
std::vector<std::string> split_commas(const std::string& s);

// `VERB [OPTIONS] -- CMD ARGS...`: everything after the first "--" is the command,
// untouched by the option parser, which sees only the first `own_argc` arguments.
struct CommandAfterDashes {
  int own_argc = 0;
  std::vector<std::string> command;
};
CommandAfterDashes split_at_dashes(int argc, char** argv);

}  // namespace cuprobe
