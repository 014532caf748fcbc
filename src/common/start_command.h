// Starts a command with execvp (never through a shell). An exec failure (no
// such program, not executable) comes back through a close-on-exec pipe as an
// Error, so a caller never waits on a child that could not start.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace cuprobe {

// stdout_to_stderr: the child's stdout goes to this process's stderr (stdout
// carries cuprobe's result). Returns the child's pid; the caller waits for it.
pid_t start_command(const std::vector<std::string>& command, bool stdout_to_stderr = false);

// A waitpid status as a shell reports it: the exit status, or 128 + the signal that ended it.
int exit_code_of(int wait_status);

}  // namespace cuprobe
