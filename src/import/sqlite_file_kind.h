// Which reader an SQLite file is for, from the tables it has: a cuprobe run
// file has 'metadata', an Nsight Systems export 'StringIds'.
#pragma once

#include <string>

namespace cuprobe {

enum class SqliteFileKind {
  kRunFile,  // or unreadable: the run-file reader says why
  kNsysExport,
  kOther,  // an SQLite database of something else
};

SqliteFileKind sqlite_file_kind(const std::string& path);

}  // namespace cuprobe
