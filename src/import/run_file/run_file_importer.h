// Reads a cuprobe run file (SQLite, docs/run-file.md) into a Profile.
#pragma once

#include <string>

#include "model/profile.h"

namespace cuprobe {

// True when the file starts with the SQLite header (does not check the schema).
bool looks_like_run_file(const std::string& path);

// Throws cuprobe::InputError with a one-line reason when the file is not a
// readable run file. A run that did not finish imports with complete = false
// and a warning saying why.
Profile import_run_file(const std::string& path);

}  // namespace cuprobe
