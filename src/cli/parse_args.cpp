#include "cli/parse_args.h"

#include <cstdio>
#include <string_view>

#include "cli/unknown_option.h"
#include "common/exit_codes.h"

namespace cuprobe {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t comma; (comma = s.find(',', start)) != std::string::npos; start = comma + 1) {
    if (comma > start) parts.push_back(s.substr(start, comma - start));
  }
  if (start < s.size()) parts.push_back(s.substr(start));
  return parts;
}

std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ExtrasError& e) {
    std::vector<std::string> extras = app.remaining(true);  // a subcommand's (`help VERB x`) too
    if (extras.empty()) {
      std::fprintf(stderr, "%s: %s (see --help)\n", app.get_name().c_str(), e.what());
      return kExitUsage;
    }
    std::string line = unexpected_arguments_message(extras, option_spellings(app));
    bool hinted = line.find("did you mean") != std::string::npos;
    std::fprintf(stderr, "%s: %s%s\n", app.get_name().c_str(), line.c_str(), hinted ? "" : " (see --help)");
    return kExitUsage;
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
