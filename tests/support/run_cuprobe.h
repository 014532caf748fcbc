// Runs the built cuprobe binary (execvp, no shell) and captures what it did.
#pragma once

#include <string>
#include <vector>

namespace cuprobe::test {

struct CommandResult {
  int exit_code = -1;  // 128+signal when killed by a signal
  std::string out;
  std::string err;
};

CommandResult run_cuprobe(const std::vector<std::string>& args, const std::string& stdin_data = "");
// The same for any binary (a path: no PATH lookup).
CommandResult run_program(const std::string& binary, const std::vector<std::string>& args,
                          const std::string& stdin_data = "");
std::string data_path(const std::string& name);     // tests/data/NAME
std::string shared_trace(const std::string& name);  // ../shared/traces/NAME ("" if absent)
std::string temp_dir();                             // a fresh directory for this test
// The whole file; "" when it cannot be read.
std::string slurp(const std::string& path);
// Writes TEXT to NAME in a fresh temp_dir(); returns its path.
std::string write_temp_file(const std::string& name, const std::string& text);

}  // namespace cuprobe::test
