// Nsight Systems export fixtures: tests/data/NAME.sql (written by
// tests/data/make_nsys_fixtures.py from the documented export schema) loaded
// into a fresh SQLite file, with optional SQL run after it (to break it).
#pragma once

#include <string>

namespace cuprobe::test {

// Returns the path of the SQLite file (in a fresh temp_dir(), named file_name).
std::string nsys_fixture(const std::string& sql_name, const std::string& then_sql = "",
                         const std::string& file_name = "report.sqlite");

}  // namespace cuprobe::test
