#include "cli/verb.h"

namespace cuprobe {

std::vector<Verb>& verb_registry() {
  static std::vector<Verb> verbs;
  return verbs;
}

}  // namespace cuprobe
