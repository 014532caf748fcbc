#include "support/run_cuprobe.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/start_command.h"
#include "support/test_paths.h"

namespace cuprobe::test {

CommandResult run_cuprobe(const std::vector<std::string>& args, const std::string& stdin_data) {
  return run_program(CUPROBE_BINARY, args, stdin_data);
}

CommandResult run_program(const std::string& binary, const std::vector<std::string>& args,
                          const std::string& stdin_data) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    std::vector<char*> argv;
    std::string program = binary;
    argv.push_back(program.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  std::size_t written = 0;
  if (stdin_data.empty()) {
    close(in_pipe[1]);
    in_pipe[1] = -1;
  } else {
    fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  }
  CommandResult result;
  pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {in_pipe[1], POLLOUT, 0}};
  int open_outputs = 2;
  char buf[65536];
  while (open_outputs > 0) {
    fds[2].fd = in_pipe[1];
    if (poll(fds, 3, -1) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t n = read(fds[i].fd, buf, sizeof buf);
        if (n <= 0) {
          close(fds[i].fd);
          fds[i].fd = -1;
          --open_outputs;
        } else {
          (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
        }
      }
    }
    if (in_pipe[1] >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = write(in_pipe[1], stdin_data.data() + written, stdin_data.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 || written == stdin_data.size()) {
        close(in_pipe[1]);
        in_pipe[1] = -1;
      }
    }
  }
  if (in_pipe[1] >= 0) close(in_pipe[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = exit_code_of(status);
  return result;
}

std::string data_path(const std::string& name) { return std::string(CUPROBE_TEST_DATA_DIR) + "/" + name; }

std::string shared_trace(const std::string& name) {
  std::string path = std::string(CUPROBE_SHARED_TRACES_DIR) + "/" + name;
  return std::filesystem::exists(path) ? path : std::string();
}

namespace {

// Every directory temp_dir() made, removed with what it holds when the test
// process ends (ctest runs one test per process, so each test cleans up after
// itself). Only the process that made them removes them: a forked child that
// exits normally leaves its parent's directories alone.
class TempDirs {
 public:
  ~TempDirs() {
    if (getpid() != owner_) return;
    std::error_code ec;
    for (const std::string& dir : dirs_) std::filesystem::remove_all(dir, ec);
  }
  std::string make() {
    std::string pattern = (std::filesystem::temp_directory_path() / "cuprobe_test_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    std::lock_guard<std::mutex> lock(mutex_);
    dirs_.push_back(pattern);
    return pattern;
  }

 private:
  pid_t owner_ = getpid();
  std::mutex mutex_;
  std::vector<std::string> dirs_;
};

TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}

}  // namespace

std::string temp_dir() { return temp_dirs().make(); }

std::string write_temp_file(const std::string& name, const std::string& text) {
  std::string path = temp_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace cuprobe::test
