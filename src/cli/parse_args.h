// Runs CLI11 with cuprobe's conventions: --help prints and exits 0, any usage
// error is one line on stderr and exit code 2.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>

namespace cuprobe {

// Returns std::nullopt when the verb should go on; otherwise the exit code.
std::optional<int> parse_args(CLI::App& app, int argc, char** argv);

}  // namespace cuprobe
