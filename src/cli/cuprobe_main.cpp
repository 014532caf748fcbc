#include "cli/cuprobe_main.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <string>

#include "cli/parse_args.h"
#include "cli/verb.h"
#include "collect/build_info.h"
#include "collect/record/inject_library.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/secrets.h"
#include "common/stop_signals.h"
#include "common/version.h"
#include "report/json_field.h"

namespace cuprobe {

namespace {

const Verb* find_verb(const std::string& name) {
  for (const auto& v : verb_registry()) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

void print_version() {
  std::printf("cuprobe %s\n", kVersion);
  if (!built_with_cupti()) {
    std::printf("collectors: not built (analysis-only build: configured without CUDA >= 12.8 and CUPTI)\n");
    return;
  }
  std::printf("counters (sample, record, bench --sample): built with CUPTI\n");
  std::string lib = default_inject_library();
  std::error_code ec;
  if (std::filesystem::exists(lib, ec)) {
    std::printf("kernel tracing (record): injection library %s\n", lib.c_str());
  } else {
    std::printf("kernel tracing (record): built, but the injection library is not at %s\n", lib.c_str());
  }
}

// Runs one verb with the arguments after its name; errors it throws become one line.
int run_verb(const Verb& verb, int argc, char** argv) {
  std::string program = "cuprobe " + verb.name;
  argv[0] = program.data();
  install_default_stop(program.c_str());  // SIGINT/SIGTERM end every verb promptly, with a line
  try {
    return verb.main(argc, argv);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), redact_secrets(e.what()).c_str());
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory\n", program.c_str());
    return kExitFailed;
  } catch (const nlohmann::json::exception& e) {
    // Readers name the file themselves; one that does not still says what went wrong in our words.
    std::fprintf(stderr, "%s: %s\n", program.c_str(), json_error_words(e).c_str());
    return kExitFailed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
    return kExitFailed;
  }
}

int print_verb_help(const Verb& verb) {
  std::string program = "cuprobe " + verb.name, help = "--help";
  char* argv[] = {program.data(), help.data(), nullptr};
  return run_verb(verb, 2, argv);
}

}  // namespace

int cuprobe_main(int argc, char** argv) {
  CLI::App app{"GPU time of LLM serving: traces, recordings, counters and load.", "cuprobe"};
  app.get_formatter()->label("SUBCOMMAND", "VERB");
  app.footer("cuprobe VERB --help (or cuprobe help VERB) prints a verb's options.");
  bool version = false;
  app.add_flag("-V,--version", version, "print the version and which collectors this build has");
  app.require_subcommand(0, 1);
  auto verbs = verb_registry();
  std::sort(verbs.begin(), verbs.end(), [](const Verb& a, const Verb& b) { return a.name < b.name; });
  for (const auto& v : verbs) app.add_subcommand(v.name, v.summary)->group("Verbs");
  std::string help_verb;
  CLI::App* help = app.add_subcommand("help", "print a verb's help: cuprobe help VERB");
  help->add_option("VERB", help_verb, "verb whose help to print");
  help->group("Verbs");

  // CLI11 parses up to the verb's name; what follows is the verb's own, parsed by
  // its main (after `help` too, so CLI11 sees the VERB it names).
  int verb_at = 1;
  while (verb_at < argc && argv[verb_at][0] == '-') ++verb_at;
  bool has_verb = verb_at < argc;
  bool is_help = has_verb && std::strcmp(argv[verb_at], "help") == 0;
  if (has_verb && !is_help && !find_verb(argv[verb_at])) {
    std::fprintf(stderr, "cuprobe: unknown verb '%s' (cuprobe --help lists them)\n", argv[verb_at]);
    return kExitUsage;
  }
  int own_argc = has_verb && !is_help ? verb_at + 1 : argc;
  if (auto code = parse_args(app, own_argc, argv)) return *code;

  if (version) {
    if (!app.get_subcommands().empty()) {
      std::fprintf(stderr, "cuprobe: --version takes no verb (see --help)\n");
      return kExitUsage;
    }
    print_version();
    return kExitOk;
  }
  if (help->parsed()) {
    if (help_verb.empty()) {
      // app.help() would describe the parsed subcommand, `help` itself.
      std::fputs(app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal).c_str(), stdout);
      return kExitOk;
    }
    const Verb* verb = find_verb(help_verb);
    if (!verb) {
      std::fprintf(stderr, "cuprobe help: unknown verb '%s' (cuprobe --help lists them)\n", help_verb.c_str());
      return kExitUsage;
    }
    return print_verb_help(*verb);
  }
  if (!has_verb) {
    std::fprintf(stderr, "usage: cuprobe VERB [OPTIONS...] (cuprobe --help lists the verbs)\n");
    return kExitUsage;
  }
  return run_verb(*find_verb(argv[verb_at]), argc - verb_at, argv + verb_at);
}

}  // namespace cuprobe
