// Loads trace files of any supported kind (Kineto JSON, plain or compressed;
// cuprobe run files), several at once in parallel (one per rank), and settles
// each one's rank.
#pragma once

#include <string>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

Profile load_profile(const std::string& path);

// Throws the first file's error (InputError) if any file fails. Ranks come
// from the trace (distributedInfo), else the file name, else the position.
std::vector<Profile> load_profiles(const std::vector<std::string>& paths);

}  // namespace cuprobe
