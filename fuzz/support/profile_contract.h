// What every importer promises about the Profile it returns (model/profile.h):
// GPU activities and CPU ranges sorted by start with end >= start (and
// end - start within 64 bits, as duration() computes it), and every
// name and metadata text valid UTF-8 (names are repaired at the reader's
// boundary). A broken promise aborts with the first violation, as a finding.
#pragma once

#include "model/profile.h"

namespace cuprobe::fuzz {

void check_profile_contract(const Profile& p);

}  // namespace cuprobe::fuzz
