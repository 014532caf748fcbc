// cuprobe VERB [ARGS...]: dispatches to the verb registered under that name.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli/verb.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/version.h"

namespace cuprobe {

namespace {

void print_usage(std::FILE* out) {
  auto verbs = verb_registry();
  std::sort(verbs.begin(), verbs.end(), [](const Verb& a, const Verb& b) { return a.name < b.name; });
  std::fprintf(out, "usage: cuprobe VERB [OPTIONS...]   (cuprobe VERB --help for details)\n\nverbs:\n");
  for (const auto& v : verbs) std::fprintf(out, "  %-10s %s\n", v.name.c_str(), v.summary.c_str());
}

}  // namespace
}  // namespace cuprobe

int main(int argc, char** argv) {
  using namespace cuprobe;
  if (argc < 2) {
    print_usage(stderr);
    return kExitUsage;
  }
  std::string verb_name = argv[1];
  if (verb_name == "--help" || verb_name == "-h" || verb_name == "help") {
    print_usage(stdout);
    return kExitOk;
  }
  if (verb_name == "--version") {
    std::printf("cuprobe %s\n", kVersion);
    return kExitOk;
  }
  for (const auto& verb : verb_registry()) {
    if (verb.name != verb_name) continue;
    std::string program = "cuprobe " + verb_name;
    argv[1] = program.data();
    try {
      return verb.main(argc - 1, argv + 1);
    } catch (const Error& e) {
      std::fprintf(stderr, "cuprobe %s: %s\n", verb_name.c_str(), e.what());
      return e.exit_code();
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "cuprobe %s: out of memory\n", verb_name.c_str());
      return kExitFailed;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cuprobe %s: %s\n", verb_name.c_str(), e.what());
      return kExitFailed;
    }
  }
  std::fprintf(stderr, "cuprobe: unknown verb '%s'\n", verb_name.c_str());
  print_usage(stderr);
  return kExitUsage;
}
