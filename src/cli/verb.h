// Each verb lives in one file under src/cli/ and registers itself here:
//   static const VerbRegistration kReg{"analyze", "where each step's time goes", run_analyze};
// The function gets the arguments after the verb (argv[0] is "cuprobe VERB").
#pragma once

#include <string>
#include <vector>

namespace cuprobe {

using VerbMain = int (*)(int argc, char** argv);

struct Verb {
  std::string name;
  std::string summary;
  VerbMain main;
};

std::vector<Verb>& verb_registry();

struct VerbRegistration {
  VerbRegistration(std::string name, std::string summary, VerbMain main) {
    verb_registry().push_back({std::move(name), std::move(summary), main});
  }
};

}  // namespace cuprobe
