// Loads trace files of any supported kind (Kineto JSON, plain or compressed;
// cuprobe run files; Nsight Systems SQLite exports and reports), several at
// once in parallel (one per rank), and settles each one's rank. A directory
// stands for the trace files in it (import/trace_directory.h).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

// Every rank one file holds: one Profile, or one per process of a run file or
// Kineto trace of several (split_by_process), or per process and GPU of an
// Nsight Systems export of several.
std::vector<Profile> load_trace_file(const std::string& path);

// One file whole (what `export` converts): a Kineto trace or run file of several processes as one Profile; an
// InputError for an Nsight Systems export of several ranks.
Profile load_profile(const std::string& path);

// Throws the first file's error (InputError) if any file fails. Ranks come
// from the trace (distributedInfo; an export's processes and GPUs), else the
// file name, else the position. Files skipped in a directory are counted
// (file_not_a_trace) on the first Profile loaded from it; a directory without
// any trace file is an InputError.
std::vector<Profile> load_profiles(const std::vector<std::string>& paths);

// The same, handing each Profile as soon as it is read (on the loading thread, before its rank is settled from the
// file name or position) to `reduce` with a number unique to it (its slot); the Profiles returned are what `reduce`
// left of them, and `slots` receives their slots in the same order. A reducer that keeps what it needs and empties
// the Profile holds memory to a few ranks' worth, however many are read (analyze over many ranks).
using ProfileReducer = std::function<void(Profile&, std::size_t slot)>;
std::vector<Profile> load_profiles(const std::vector<std::string>& paths, const ProfileReducer& reduce,
                                   std::vector<std::size_t>& slots);

// The files the profiles came from, each once, in the profiles' order.
std::vector<std::string> profile_files(const std::vector<Profile>& profiles);

}  // namespace cuprobe
