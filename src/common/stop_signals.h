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
//
// Between them, every verb runs under install_default_stop (cuprobe_main): a
// SIGINT or SIGTERM that no loop listens for ends the process at once, even
// blocked in open() of a FIFO or in read() of stdin, with one line
// ("cuprobe VERB: stopped by SIGTERM") and the signal's own status (128+N);
// the temporary files of writes in progress (atomic_file) are removed first,
// so every target is as it was or whole. A signal the process started with
// ignored stays ignored. Issue 39.
#pragma once

#include <signal.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuprobe {

// Installs the default stop for SIGINT and SIGTERM; `program` ("cuprobe VERB") starts its line.
void install_default_stop(const char* program);

// How many times a StopFlag heard SIGINT or SIGTERM so far. A blocking call (a write to a pipe
// nobody reads, the open of a FIFO nobody opens) notes it when it starts and gives up, instead of
// retrying, once it changed: a signal that came earlier (bench's interrupted run) never stops
// the writing of what was measured.
int stop_signals_heard();
// "stopped by SIGTERM" (or SIGINT), for the error a loop gives up with.
std::string stopped_text();

// A temporary file the default stop removes (atomic_file's NAME.XXXXXX.partial); at most 16 at once,
// more are not removed by a signal (still by their writer).
void remember_partial_file(const std::string& path);
void forget_partial_file(const std::string& path);

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
