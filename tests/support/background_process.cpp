#include "support/background_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "common/start_command.h"
#include "net/http_fetch.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {

BackgroundProcess::BackgroundProcess(const std::string& binary, const std::vector<std::string>& args,
                                     const std::string& log_prefix, const std::vector<std::string>& env)
    : log_prefix_(log_prefix) {
  std::vector<std::string> argv_s = {binary};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  // The child's environment, built before fork(): only async-signal-safe calls after it.
  std::vector<std::string> env_s = env;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    bool overridden = false;
    for (const auto& o : env) overridden |= entry.compare(0, o.find('=') + 1, o, 0, o.find('=') + 1) == 0;
    if (!overridden) env_s.push_back(entry);
  }
  std::vector<char*> argv, envp;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string out_path = log_prefix + ".out", err_path = log_prefix + ".err";
  pid_ = fork();
  if (pid_ == 0) {
    int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
}

BackgroundProcess::~BackgroundProcess() {
  if (running()) stop(SIGKILL, 5000);
}

bool BackgroundProcess::running() {
  if (pid_ <= 0 || status_ >= 0) return false;
  int st = 0;
  if (waitpid(pid_, &st, WNOHANG) == pid_) {
    status_ = exit_code_of(st);
    return false;
  }
  return true;
}

int BackgroundProcess::stop(int signal, int timeout_ms) {
  if (!running()) return status_;
  kill(pid_, signal);
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < end) {
    if (!running()) return status_;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

std::string BackgroundProcess::err() const { return slurp(log_prefix_ + ".err"); }

int free_tcp_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

std::string http_get(int port, const std::string& path, const std::string& accept, int* status) {
  HttpUrl url = parse_http_url("http://127.0.0.1:" + std::to_string(port));
  HttpClientConfig client;
  if (!accept.empty()) client.extra_headers = "Accept: " + accept + "\r\n";
  HttpFetchResult r = http_fetch(url, client, "GET", path, "", std::chrono::seconds(5));
  if (status) *status = r.responded ? r.status : 0;
  return r.responded ? r.body : "";
}

}  // namespace cuprobe::test
