// A program started in the background for a test (execv, no shell), with its
// stdout and stderr in files; ended by a signal and reaped when the test is done.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace cuprobe::test {

class BackgroundProcess {
 public:
  // `env` entries "NAME=VALUE" are added to the inherited environment. Output goes to
  // LOG_PREFIX.out and LOG_PREFIX.err.
  BackgroundProcess(const std::string& binary, const std::vector<std::string>& args, const std::string& log_prefix,
                    const std::vector<std::string>& env = {});
  ~BackgroundProcess();  // SIGKILL and reap when still running
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  // Sends `signal` and waits up to `timeout_ms` for the exit; the exit code (128+signal when
  // killed), or -1 when it did not end in time.
  int stop(int signal, int timeout_ms);
  std::string err() const;  // what it wrote to stderr so far

 private:
  pid_t pid_ = -1;
  std::string log_prefix_;
  int status_ = -1;
};

// A TCP port on 127.0.0.1 that was free a moment ago.
int free_tcp_port();
// GET http://127.0.0.1:PORT/PATH with the optional Accept header; the body, "" when none came.
std::string http_get(int port, const std::string& path, const std::string& accept = "", int* status = nullptr);

}  // namespace cuprobe::test
