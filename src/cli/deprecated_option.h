// An option's old spelling, kept working after a rename (docs/cli.md lists both):
// hidden from --help, it prints one warning line on stderr and hands its value to
// the option as spelled now (so that option's checks and variable apply). Giving
// both spellings is a usage error.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuprobe {

void add_deprecated_alias(CLI::App& app, CLI::Option* current, const std::string& old_name);

}  // namespace cuprobe
