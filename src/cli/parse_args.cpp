#include "cli/parse_args.h"

#include <cstdio>
#include <string_view>

#include "common/exit_codes.h"

namespace cuprobe {

std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: %s (see --help)\n", app.get_name().c_str(), e.what());
    return kExitUsage;
  }
  return std::nullopt;
}

CommandAfterDashes split_at_dashes(int argc, char** argv) {
  CommandAfterDashes split{argc, {}};
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      split.own_argc = i;
      split.command.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  return split;
}

}  // namespace cuprobe
