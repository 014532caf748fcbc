// Reads a cuprobe run file (SQLite, docs/run-file.md) into a Profile.
#pragma once

#include <string>
#include <string_view>

#include "model/profile.h"

namespace cuprobe {

// True when the file starts with the SQLite header (does not check the schema).
bool looks_like_run_file(const std::string& path);
bool is_run_file_header(std::string_view first_bytes);

// Throws cuprobe::InputError with a one-line reason when the file is not a
// readable run file. A run that did not finish imports with complete = false
// and a warning saying why.
// shown_as: the name for messages and Profile::file when `path` is a copy.
Profile import_run_file(const std::string& path, const std::string& shown_as = {});

}  // namespace cuprobe
