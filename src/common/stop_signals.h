// How cuprobe's verbs hear signals: one home, two forms chosen by the loop that
// waits for them. Both change the process's signal handling only while they
// live and restore it when destroyed; restore() does so early (a forked child,
// before exec, so the command gets the dispositions cuprobe was started with).
//
// StopFlag: SIGINT and SIGTERM set a flag instead of ending the process, for
// loops that check a flag between steps (bench's load runner, sample's tick).
// No SA_RESTART, so a sleep in progress ends early.
//
// SignalFd: the signals are blocked and read from a descriptor, with who sent
// them, for a poll() loop that must not miss one between two checks (record:
// it forwards signals to the command and reaps it on SIGCHLD). A signal the
// shell set to ignored (background jobs start with SIGINT ignored) never
// reaches a signalfd, so it takes the default disposition (blocked) meanwhile.
#pragma once

#include <signal.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace cuprobe {

class StopFlag {
 public:
  StopFlag();  // one at a time per process
  ~StopFlag();
  StopFlag(const StopFlag&) = delete;
  StopFlag& operator=(const StopFlag&) = delete;

  // The last stop signal received (SIGINT or SIGTERM), 0 while none.
  int signal() const;
  // The same, for code that polls a flag it is handed.
  const volatile int* flag() const;
  void restore();

 private:
  struct sigaction old_int_ {
  }, old_term_{};
  bool restored_ = false;
};

class SignalFd {
 public:
  struct Received {
    int signal = 0;
    bool from_terminal = false;  // sent by the kernel (a terminal's Ctrl-C), not by kill()
  };

  // Throws Error when the descriptor cannot be made.
  explicit SignalFd(std::vector<int> signals);
  ~SignalFd();
  SignalFd(const SignalFd&) = delete;
  SignalFd& operator=(const SignalFd&) = delete;

  int fd() const { return fd_; }
  // The next pending signal, without blocking.
  std::optional<Received> next();
  void restore();  // async-signal-safe: usable between fork and exec

 private:
  std::vector<int> signals_;
  std::vector<struct sigaction> old_actions_;
  sigset_t old_mask_{};
  int fd_ = -1;
  bool restored_ = false;
};

}  // namespace cuprobe
