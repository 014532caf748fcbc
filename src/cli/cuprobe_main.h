// The top level of the cuprobe binary: one CLI::App whose subcommands are the
// registered verbs (cli/verb.h), plus -V/--version and `help VERB`.
#pragma once

namespace cuprobe {

// argv as main() gets it; returns the process exit code.
int cuprobe_main(int argc, char** argv);

}  // namespace cuprobe
