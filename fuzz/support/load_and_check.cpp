#include "support/load_and_check.h"

#include "import/load_profiles.h"
#include "support/input_errors_only.h"
#include "support/profile_contract.h"

namespace cuprobe::fuzz {

void load_and_check(const std::string& path) {
  input_errors_only([&] {
    for (const Profile& p : load_trace_file(path)) check_profile_contract(p);
  });
}

}  // namespace cuprobe::fuzz
