#include "common/stop_signals.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "common/error.h"

namespace cuprobe {
namespace {

static_assert(sizeof(sig_atomic_t) == sizeof(int));
volatile sig_atomic_t g_stop_signal = 0;

void on_stop_signal(int sig) { g_stop_signal = sig; }

}  // namespace

StopFlag::StopFlag() {
  g_stop_signal = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a sleep ends early when a signal comes
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

StopFlag::~StopFlag() { restore(); }

int StopFlag::signal() const { return g_stop_signal; }

const volatile int* StopFlag::flag() const { return &g_stop_signal; }

void StopFlag::restore() {
  if (restored_) return;
  restored_ = true;
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

SignalFd::SignalFd(std::vector<int> signals) : signals_(std::move(signals)), old_actions_(signals_.size()) {
  sigset_t mask;
  sigemptyset(&mask);
  for (int sig : signals_) sigaddset(&mask, sig);
  sigprocmask(SIG_BLOCK, &mask, &old_mask_);
  for (std::size_t i = 0; i < signals_.size(); ++i) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigaction(signals_[i], &dfl, &old_actions_[i]);
  }
  fd_ = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd_ < 0) {
    int e = errno;
    restore();
    throw Error(std::string("signalfd: ") + std::strerror(e));
  }
}

SignalFd::~SignalFd() {
  if (fd_ >= 0) close(fd_);
  restore();
}

std::optional<SignalFd::Received> SignalFd::next() {
  signalfd_siginfo si{};
  if (read(fd_, &si, sizeof si) != sizeof si) return std::nullopt;
  return Received{static_cast<int>(si.ssi_signo), si.ssi_code == SI_KERNEL};
}

void SignalFd::restore() {
  if (restored_) return;
  restored_ = true;
  for (std::size_t i = 0; i < signals_.size(); ++i) sigaction(signals_[i], &old_actions_[i], nullptr);
  sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
}

}  // namespace cuprobe
