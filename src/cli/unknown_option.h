// Usage errors for what the option parser did not expect: the first unknown
// option with the nearest known spelling ("did you mean --max-concurrency?"),
// the tokens in the order they were typed. Shared by every verb (parse_args).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace cuprobe {

// The known option closest to `typed` ("--max-concurency"), or "" when none is
// close: optimal string alignment distance at most 2, or a third of the name.
// `known` holds full spellings ("--max-concurrency", "-c").
std::string nearest_option(const std::string& typed, const std::vector<std::string>& known);

// Every visible spelling of `app`'s options (hidden deprecated aliases left out).
std::vector<std::string> option_spellings(const CLI::App& app);

// One line, without the program name: "unknown option --max-concurency; did you
// mean --max-concurrency?", or "unexpected argument 'x'" when no option is unknown;
// further tokens follow as "(also not expected: ...)". `extras` in typed order.
std::string unexpected_arguments_message(const std::vector<std::string>& extras, const std::vector<std::string>& known);

}  // namespace cuprobe
