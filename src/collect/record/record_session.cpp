#include "collect/record/record_session.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include "collect/counters/device_sampler.h"
#include "collect/device/cuda_driver.h"
#include "collect/record/inject_library.h"
#include "collect/record/record_connection.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/say.h"
#include "common/shared_library.h"
#include "common/start_command.h"
#include "common/stop_signals.h"
#include "common/version.h"
#include "store/run_file_schema.h"
#include "store/run_file_writer.h"
#include "wire/capture_window.h"
#include "wire/record_wire.h"

namespace cuprobe {
namespace {

void say(const std::string& line) { cuprobe::say("record", "%s", line.c_str()); }

// The libcupti file the injected processes should use for NVTX; empty if none.
std::string find_cupti() {
  OpenedLibrary lib = open_library({"libcupti.so.13", "libcupti.so.12", "libcupti.so"}, RTLD_LAZY | RTLD_NOLOAD);
  if (!lib) lib = open_library({"libcupti.so.13", "libcupti.so.12", "libcupti.so"}, RTLD_LAZY | RTLD_LOCAL);
  return lib.path;
}

// cuprobe's ordinal of each GPU it sees (CUDA_VISIBLE_DEVICES applies to cuprobe as to
// the command), by UUID: the key that maps every process's device numbers onto one.
GpuOrdinals gpu_ordinals() {
  GpuOrdinals ordinals;
  CudaDriver& driver = CudaDriver::instance();
  if (!driver.loaded() || driver.init_result() != 0) return ordinals;
  for (int i = 0; i < driver.device_count(); ++i) {
    std::string uuid = driver.uuid(i);
    if (!uuid.empty()) ordinals[uuid] = i;
  }
  return ordinals;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += ' ';
    out += s;
  }
  return out;
}

void send_control(int fd, wire::ControlCommand cmd) {
  std::string frame;
  wire::append_frame(frame, wire::Type::kControl, wire::Control{static_cast<std::uint32_t>(cmd), 0});
  (void)send(fd, frame.data(), frame.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

class Session {
 public:
  // --capture cuda-profiler is filtered in the library itself (collection off outside the range).
  explicit Session(const RecordOptions& o)
      : o_(o), window_(o.capture != CaptureMode::kSignal && !o.delay && !o.duration) {}
  ~Session();
  RecordOutcome run();

 private:
  void setup_socket();
  void setup_environment();
  void spawn();
  void start_counters();
  void drain_counters(bool final);
  void open_window(std::int64_t now, const char* why);
  void close_window(std::int64_t now, const char* why);
  void broadcast(wire::ControlCommand cmd);
  void accept_connections(std::int64_t now);
  void close_connection(int fd, std::int64_t now);
  void on_signal(const SignalFd::Received& si, std::int64_t now);
  void reap_child(std::int64_t now);
  void check_size(std::int64_t now);
  void finish(std::int64_t now);
  void print_messages(RecordConnection& c);
  void start_run_file();
  void tick();
  void read_connection(int fd, std::int64_t now);
  void follow_window(std::int64_t now);
  void stop_when_done(std::int64_t now);
  void wait_for_command();
  RecordOutcome outcome() const;

  const RecordOptions& o_;
  CaptureWindow window_;
  std::unique_ptr<RunFileWriter> writer_;
  std::string socket_dir_, socket_path_;
  int listen_fd_ = -1;
  std::optional<SignalFd> signals_;
  pid_t child_ = -1;
  std::optional<int> child_exit_;
  std::int64_t child_exit_ns_ = 0;
  std::map<int, std::unique_ptr<RecordConnection>> conns_;
  GpuOrdinals ordinals_;
  std::unique_ptr<DeviceSampler> sampler_;
  std::map<std::string, std::string> child_env_;  // set for the command only, never in cuprobe itself
  std::vector<std::string> metric_names_;
  std::int64_t start_ns_ = 0;
  std::int64_t window_closed_at_ = -1;
  std::int64_t last_drain_ = 0;
  std::string status_ = kRunStatusComplete;
  int interrupts_ = 0;
  std::int64_t interrupted_at_ = -1;
  bool size_limited_ = false;
  bool finished_ = false;
  bool kernels_possible_ = true;
  bool any_connection_ = false;
};

Session::~Session() {
  for (auto& [fd, c] : conns_) close(fd);
  if (listen_fd_ >= 0) close(listen_fd_);
  if (!socket_path_.empty()) unlink(socket_path_.c_str());
  if (!socket_dir_.empty()) rmdir(socket_dir_.c_str());
}

void Session::setup_socket() {
  char dir[] = "/tmp/cuprobe-record-XXXXXX";
  if (!mkdtemp(dir)) throw Error(std::string("cannot create a socket directory in /tmp: ") + std::strerror(errno));
  socket_dir_ = dir;
  socket_path_ = socket_dir_ + "/sock";
  listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, socket_path_.c_str(), sizeof addr.sun_path - 1);
  if (listen_fd_ < 0 || bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 128) != 0) {
    throw Error(std::string("cannot listen on ") + socket_path_ + ": " + std::strerror(errno));
  }
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kBuiltWithAddressSanitizer = true;
#else
constexpr bool kBuiltWithAddressSanitizer = false;
#endif

void Session::setup_environment() {
  std::string lib = o_.inject_library.empty() ? default_inject_library() : o_.inject_library;
  std::error_code ec;
  if (!std::filesystem::exists(lib, ec)) {
    kernels_possible_ = false;
    std::string why = "kernel tracing unavailable: injection library " + lib +
                      " not found (cuprobe built without CUPTI?); recording counters only";
    say(why);
    writer_->add_notice(realtime_ns(), -1, "cuprobe", why);
    return;
  }
  lib = std::filesystem::absolute(lib, ec).string();
  if (const char* existing = std::getenv("CUDA_INJECTION64_PATH"); existing && *existing && lib != existing) {
    std::string why = std::string("CUDA_INJECTION64_PATH was set to ") + existing + "; replaced by cuprobe's";
    say(why);
    writer_->add_notice(realtime_ns(), -1, "cuprobe", why);
  }
  child_env_["CUDA_INJECTION64_PATH"] = lib.c_str();
  child_env_[wire::kSocketEnv] = socket_path_.c_str();
  const char* start = o_.capture == CaptureMode::kCudaProfiler ? "cuda-profiler" : window_.is_open() ? "on" : "off";
  child_env_[wire::kStartEnv] = start;
  child_env_[wire::kApiEnv] = o_.api_calls ? "1" : "0";
  std::string cupti = find_cupti();
  if (!cupti.empty()) {
    child_env_["CUPROBE_CUPTI_PATH"] = cupti.c_str();
    if (!std::getenv("NVTX_INJECTION64_PATH")) child_env_["NVTX_INJECTION64_PATH"] = cupti;
  }
  if (!o_.kinds.empty()) child_env_[wire::kKindsEnv] = o_.kinds;
  child_env_[wire::kGraphsEnv] = o_.graphs;
  child_env_[wire::kKeepCuptiEnv] = o_.keep_cupti ? "1" : "0";
  // Preloaded as well, so that a profiler started inside the command (torch.profiler)
  // asks cuprobe for CUPTI: its cuptiSubscribe is the library's (src/inject/).
  if (kBuiltWithAddressSanitizer) {
    // The library of a sanitizer build needs ASan's runtime loaded first: preloaded into
    // a program without it, it would stop that program.
    writer_->add_notice(realtime_ns(), -1, "cuprobe",
                        "built with AddressSanitizer: the injection library is not preloaded (a profiler started "
                        "inside the command is not handed CUPTI)");
  } else if (!is_elf_program(lib)) {
    const char* preload = std::getenv("LD_PRELOAD");
    child_env_["LD_PRELOAD"] = preload && *preload ? lib + ":" + preload : lib;
  }
  child_env_[wire::kHwTraceEnv] = o_.hw_trace ? "auto" : "off";
  writer_->set_metadata("graphs", o_.graphs);
  writer_->set_metadata("inject_library", lib);
  writer_->set_metadata("cupti_library", cupti.empty() ? "not found" : cupti);
}

void Session::spawn() {
  std::vector<std::string> args = o_.command;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    if (!child_env_.count(entry.substr(0, entry.find('=')))) env_strings.push_back(std::move(entry));
  }
  for (const auto& [k, v] : child_env_) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  child_ = fork();
  if (child_ < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (child_ == 0) {
    if (signals_) signals_->restore();
    close(err_pipe[0]);
    execvpe(argv[0], argv.data(), envp.data());
    int e = errno;
    (void)!write(err_pipe[1], &e, sizeof e);
    _exit(127);
  }
  close(err_pipe[1]);
  int e = 0;
  ssize_t n = read(err_pipe[0], &e, sizeof e);
  close(err_pipe[0]);
  if (n == sizeof e) {
    waitpid(child_, nullptr, 0);
    child_ = -1;
    writer_->add_notice(realtime_ns(), -1, "cuprobe", "cannot run " + o_.command[0] + ": " + std::strerror(e));
    writer_->finish("failed");
    throw Error("cannot run '" + o_.command[0] + "': " + std::strerror(e), e == ENOENT ? 127 : 126);
  }
  writer_->process_started(child_, getpid(), join(o_.command), realtime_ns(), 0);
  writer_->set_metadata("pid", std::to_string(child_));
}

void Session::start_counters() {
  if (!o_.counters) {
    writer_->set_metadata("counters", "off (--no-counters)");
    return;
  }
  SamplerConfig cfg;
  cfg.gpus = o_.counter_gpus;
  cfg.interval = o_.sample_interval;
  cfg.preset = o_.preset;
  try {
    sampler_ = open_device_sampler(cfg);
    metric_names_ = sampler_->metric_names();
    sampler_->start();
    writer_->set_metadata("counters", "on");
    writer_->set_metadata("counter_interval_ns", std::to_string(o_.sample_interval.count()));
  } catch (const Error& e) {
    sampler_.reset();
    std::string why = std::string("counters unavailable: ") + e.what();
    say(why + " (recording the rest)");
    writer_->set_metadata("counters", why);
    writer_->add_notice(realtime_ns(), -1, "cuprobe", why);
  }
}

void Session::drain_counters(bool final) {
  if (!sampler_) return;
  try {
    if (final) sampler_->stop();
    auto gpus = sampler_->gpus();
    for (const auto& row : sampler_->drain()) {
      if (!window_.contains(row.start_ns) || finished_) continue;
      if (size_limited_) {
        writer_->count_loss("cuprobe", -1, "max-size reached (counter rows)", 1);
        continue;
      }
      for (std::size_t i = 0; i < row.values.size() && i < metric_names_.size(); ++i) {
        if (std::isnan(row.values[i])) continue;
        writer_->add_sample(row.gpu, row.start_ns, row.end_ns, metric_names_[i], row.values[i]);
      }
    }
    if (final) writer_->count_loss("sampler", -1, "counter samples dropped", sampler_->lost_samples());
  } catch (const Error& e) {
    std::string why = std::string("counter sampling stopped: ") + e.what();
    say(why);
    writer_->add_notice(realtime_ns(), -1, "cuprobe", why);
    sampler_.reset();
  }
}

void Session::broadcast(wire::ControlCommand cmd) {
  for (auto& [fd, c] : conns_) send_control(fd, cmd);
}

void Session::open_window(std::int64_t now, const char* why) {
  if (window_.is_open()) return;
  window_.open(now);
  writer_->add_capture(now, -1, true, why);
  broadcast(wire::ControlCommand::kEnable);
  say(std::string("recording on (") + why + ")");
}

void Session::close_window(std::int64_t now, const char* why) {
  if (!window_.is_open()) return;
  window_.close(now);
  writer_->add_capture(now, -1, false, why);
  broadcast(wire::ControlCommand::kDisable);
  broadcast(wire::ControlCommand::kFlush);
  say(std::string("recording off (") + why + ")");
}

void Session::accept_connections(std::int64_t now) {
  while (true) {
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) return;
    conns_[fd] = std::make_unique<RecordConnection>(*writer_, window_, ordinals_);
    conns_[fd]->set_dropping(size_limited_);
    any_connection_ = true;
    // Windows that opened or closed before this process started.
    if (o_.capture != CaptureMode::kCudaProfiler) {
      send_control(
          fd, window_.is_open() && !size_limited_ ? wire::ControlCommand::kEnable : wire::ControlCommand::kDisable);
    }
    (void)now;
  }
}

void Session::print_messages(RecordConnection& c) {
  for (const auto& m : c.take_messages()) say(m);
}

void Session::close_connection(int fd, std::int64_t now) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  it->second->on_closed(now);
  print_messages(*it->second);
  close(fd);
  conns_.erase(it);
}

void Session::on_signal(const SignalFd::Received& si, std::int64_t now) {
  int sig = si.signal;
  if (sig == SIGCHLD) {
    reap_child(now);
    return;
  }
  if (sig == SIGUSR1 && o_.capture == CaptureMode::kSignal) {
    if (window_.is_open())
      close_window(now, "SIGUSR1");
    else
      open_window(now, "SIGUSR1");
    return;
  }
  if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
    ++interrupts_;
    status_ = kRunStatusInterrupted;
    writer_->add_notice(now, -1, "cuprobe", std::string("cuprobe received ") + strsignal(sig));
    if (interrupts_ == 1) {
      interrupted_at_ = now;
      // A terminal's Ctrl-C reached the command already (same process group).
      if (child_ > 0 && !child_exit_ && !si.from_terminal) kill(child_, sig);
      say(std::string(strsignal(sig)) + ": stopping; waiting for the command to exit (again to stop now)");
    } else {
      say("stopping now; the command may still run");
      finish(now);
    }
  }
}

void Session::reap_child(std::int64_t now) {
  if (child_ <= 0 || child_exit_) return;
  int status = 0;
  pid_t r = waitpid(child_, &status, WNOHANG);
  if (r != child_) return;
  child_exit_ns_ = now;
  if (WIFEXITED(status)) {
    child_exit_ = WEXITSTATUS(status);
    writer_->process_ended(child_, now, "exited", *child_exit_);
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    child_exit_ = 128 + sig;
    std::string why = std::string("killed by signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
    writer_->process_ended(child_, now, why, *child_exit_);
    writer_->add_notice(now, child_, "cuprobe", "the command was " + why);
    say("the command was " + why);
  }
  writer_->set_metadata("exit_code", std::to_string(*child_exit_));
}

void Session::check_size(std::int64_t now) {
  if (o_.max_size == 0 || size_limited_) return;
  struct stat st {};
  if (stat(writer_->path().c_str(), &st) != 0) return;
  if (static_cast<std::uint64_t>(st.st_size) < o_.max_size) return;
  size_limited_ = true;
  for (auto& [fd, c] : conns_) c->set_dropping(true);
  broadcast(wire::ControlCommand::kDisable);
  std::string why = "--max-size reached (" + std::to_string(st.st_size) + " bytes): later records are counted as lost";
  writer_->add_notice(now, -1, "cuprobe", why);
  writer_->add_capture(now, -1, false, "max-size");
  say(why);
}

void Session::finish(std::int64_t now) {
  if (finished_) return;
  drain_counters(true);
  for (auto& [fd, c] : conns_) {
    c->flush_losses();
    if (child_exit_ || interrupts_ > 0) {
      writer_->add_notice(now, c->pid(), "cuprobe", "still connected when the recording ended");
    }
  }
  if (kernels_possible_ && !any_connection_) {
    std::string why = "no process of the command initialized CUDA: no kernels to record";
    writer_->add_notice(now, -1, "cuprobe", why);
    say(why);
  }
  writer_->set_metadata("ended_ns", std::to_string(now));
  if (window_.is_open() && !window_.ever_opened()) writer_->set_metadata("window", "never opened");
  finished_ = true;
  writer_->finish(status_);
}

// The run file and its first metadata: the command, when, where, and the capture options.
void Session::start_run_file() {
  writer_ = std::make_unique<RunFileWriter>(o_.output, o_.force);
  start_ns_ = realtime_ns();
  writer_->set_metadata("command", join(o_.command));
  writer_->set_metadata("started_ns", std::to_string(start_ns_));
  writer_->set_metadata("cuprobe_version", kVersion);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  writer_->set_metadata("hostname", host);
  const char* capture = o_.capture == CaptureMode::kAll      ? "all"
                        : o_.capture == CaptureMode::kSignal ? "signal"
                                                             : "cuda-profiler";
  writer_->set_metadata("capture", capture);
  if (o_.delay) writer_->set_metadata("delay_ns", std::to_string(o_.delay->count()));
  if (o_.duration) writer_->set_metadata("duration_ns", std::to_string(o_.duration->count()));
  if (o_.max_size) writer_->set_metadata("max_size_bytes", std::to_string(o_.max_size));
}

// What one connection has sent (up to 64 reads); closes it at its end or on bad bytes.
void Session::read_connection(int fd, std::int64_t now) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  char buf[1 << 16];
  bool closed = false;
  for (int reads = 0; reads < 64; ++reads) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      if (!it->second->on_bytes(buf, static_cast<std::size_t>(n), now)) {
        closed = true;
        break;
      }
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) closed = true;
    break;
  }
  print_messages(*it->second);
  if (closed) close_connection(fd, now);
}

// --delay and --duration under --capture all: the window opens and closes by the clock.
void Session::follow_window(std::int64_t now) {
  if (o_.capture != CaptureMode::kAll || !(o_.delay || o_.duration)) return;
  const std::int64_t delay_ns = o_.delay ? o_.delay->count() : 0;
  if (window_closed_at_ < 0 && now >= start_ns_ + delay_ns) open_window(now, "--delay");
  if (o_.duration && window_.is_open() && now >= start_ns_ + delay_ns + o_.duration->count()) {
    close_window(now, "--duration");
    window_closed_at_ = now;
  }
}

// When to stop: the window is over (late records have had time to arrive),
// or the command is gone and its processes have said goodbye (or timed out).
void Session::stop_when_done(std::int64_t now) {
  constexpr std::int64_t kLateRecords = 1'000'000'000;
  if (window_closed_at_ >= 0 && now - window_closed_at_ > kLateRecords) {
    say("capture window over: run file complete; waiting for the command to exit");
    finish(now);
  }
  if (child_exit_ && (conns_.empty() || now - child_exit_ns_ > o_.drain_grace.count())) finish(now);
  if (interrupted_at_ >= 0 && !child_exit_ && now - interrupted_at_ > 10'000'000'000) {
    say("the command did not exit within 10 s of the interrupt: stopping the recording");
    finish(now);
  }
}

// One turn of the loop: signals, new and talking connections, the command's exit, the window, the counters
// (every 100 ms), the size limit, then whether the recording is over.
void Session::tick() {
  std::vector<pollfd> fds;
  fds.push_back({signals_->fd(), POLLIN, 0});
  fds.push_back({listen_fd_, POLLIN, 0});
  for (auto& [fd, c] : conns_) fds.push_back({fd, POLLIN, 0});
  poll(fds.data(), fds.size(), 20);
  std::int64_t now = realtime_ns();
  if (fds[0].revents & POLLIN) {
    while (auto si = signals_->next()) on_signal(*si, now);
    if (finished_) return;
  }
  if (fds[1].revents & POLLIN) accept_connections(now);
  for (std::size_t i = 2; i < fds.size(); ++i) {
    if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) read_connection(fds[i].fd, now);
  }
  reap_child(now);
  follow_window(now);
  if (now - last_drain_ >= 100'000'000) {
    drain_counters(false);
    for (auto& [fd, c] : conns_) c->flush_losses();
    last_drain_ = now;
  }
  check_size(now);
  writer_->maybe_commit();
  stop_when_done(now);
}

// After a window closed, the command runs on: wait for it, to pass its exit code through.
void Session::wait_for_command() {
  while (child_ > 0 && !child_exit_) {
    pollfd p{signals_->fd(), POLLIN, 0};
    poll(&p, 1, 200);
    while (auto si = signals_->next()) {
      if (si->signal == SIGCHLD) {
        int status = 0;
        if (waitpid(child_, &status, WNOHANG) == child_) {
          child_exit_ = exit_code_of(status);
        }
      } else if (si->signal == SIGINT || si->signal == SIGTERM) {
        if (!si->from_terminal) kill(child_, si->signal);
        if (++interrupts_ >= 2) break;
      }
    }
    if (interrupts_ >= 2) break;
  }
}

RecordOutcome Session::outcome() const {
  RecordOutcome out;
  out.exit_code = child_exit_.value_or(kExitFailed);
  out.status = status_;
  const auto& counts = writer_->counts();
  out.kernels = counts.kernels;
  out.memcpy = counts.memcpy;
  out.memset = counts.memset;
  out.ranges = counts.ranges;
  out.graph_launches = counts.graph_launches;
  out.samples = counts.samples;
  out.processes = counts.processes;
  out.losses = writer_->total_losses();
  out.kernels_recorded = kernels_possible_ && any_connection_;
  out.counters_recorded = counts.samples > 0;
  return out;
}

RecordOutcome Session::run() {
  start_run_file();
  // The command gets the dispositions cuprobe was started with (SignalFd::restore).
  signals_.emplace(std::vector<int>{SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGCHLD});
  setup_socket();
  if (o_.capture == CaptureMode::kAll && !o_.delay) window_.open(start_ns_);
  setup_environment();
  ordinals_ = gpu_ordinals();
  start_counters();
  spawn();
  writer_->commit();
  while (!finished_) tick();
  wait_for_command();
  return outcome();
}

}  // namespace

RecordOutcome run_record(const RecordOptions& options) {
  if (options.command.empty()) throw Error("no command given (cuprobe record [OPTIONS] -- CMD ARGS...)", kExitUsage);
  Session session(options);
  return session.run();
}

}  // namespace cuprobe
