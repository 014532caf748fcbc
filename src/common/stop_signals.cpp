#include "common/stop_signals.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>

#include "common/error.h"

namespace cuprobe {
namespace {

static_assert(sizeof(sig_atomic_t) == sizeof(int));
volatile sig_atomic_t g_stop_signal = 0;

volatile sig_atomic_t g_stop_count = 0;

void on_stop_signal(int sig) {
  g_stop_signal = sig;
  g_stop_count = g_stop_count + 1;
}

// The default stop's state: written before the handler is installed, or slot by slot with the path
// complete before its flag is set, so the handler reads whole paths only.
constexpr std::size_t kPartialSlots = 16;
char g_stop_line_int[256], g_stop_line_term[256];
std::size_t g_stop_line_int_size = 0, g_stop_line_term_size = 0;
char g_partial_paths[kPartialSlots][4096];
volatile sig_atomic_t g_partial_used[kPartialSlots] = {};
std::mutex g_partial_mutex;  // between threads that register; never taken by the handler
pid_t g_owner = 0;           // the process that installed the default stop: a forked child removes nothing

void write_all(int fd, const char* text, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, text, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text += n;
    size -= static_cast<std::size_t>(n);
  }
}

// Async-signal-safe only: unlink, write, sigaction, raise.
void on_default_stop(int sig) {
  int saved = errno;
  for (std::size_t i = 0; i < kPartialSlots && ::getpid() == g_owner; ++i) {
    if (g_partial_used[i]) ::unlink(g_partial_paths[i]);
  }
  if (sig == SIGINT) {
    write_all(2, g_stop_line_int, g_stop_line_int_size);
  } else {
    write_all(2, g_stop_line_term, g_stop_line_term_size);
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  errno = saved;
  raise(sig);  // pending until the handler returns (the signal is blocked meanwhile), then the default: the end
}

void fill_line(char* out, std::size_t& size, const std::string& text) {
  size = std::min(text.size(), std::size_t{255});
  std::memcpy(out, text.data(), size);
}

}  // namespace

void install_default_stop(const char* program) {
  std::string who = program;
  g_owner = ::getpid();
  fill_line(g_stop_line_int, g_stop_line_int_size, who + ": stopped by SIGINT\n");
  fill_line(g_stop_line_term, g_stop_line_term_size, who + ": stopped by SIGTERM\n");
  struct sigaction sa {};
  sa.sa_handler = on_default_stop;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // started ignored (a background job's SIGINT): stays so
    sigaction(sig, &sa, nullptr);
  }
}

int stop_signals_heard() { return g_stop_count; }

std::string stopped_text() { return g_stop_signal == SIGINT ? "stopped by SIGINT" : "stopped by SIGTERM"; }

void remember_partial_file(const std::string& path) {
  if (path.size() >= sizeof g_partial_paths[0]) return;
  std::lock_guard<std::mutex> lock(g_partial_mutex);
  for (std::size_t i = 0; i < kPartialSlots; ++i) {
    if (g_partial_used[i]) continue;
    std::memcpy(g_partial_paths[i], path.c_str(), path.size() + 1);
    g_partial_used[i] = 1;
    return;
  }
}

void forget_partial_file(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_partial_mutex);
  for (std::size_t i = 0; i < kPartialSlots; ++i) {
    if (g_partial_used[i] && path == g_partial_paths[i]) g_partial_used[i] = 0;
  }
}

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
