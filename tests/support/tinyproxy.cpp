#include "support/tinyproxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

bool accepts(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

}  // namespace

std::optional<std::string> Tinyproxy::binary(std::string& why) {
  for (const char* path : {"/usr/bin/tinyproxy", "/usr/sbin/tinyproxy", "/usr/local/bin/tinyproxy"}) {
    if (access(path, X_OK) == 0) return path;
  }
  why = "tinyproxy is not installed (scripts/setup.sh installs it)";
  return std::nullopt;
}

Tinyproxy::Tinyproxy(const TinyproxyOptions& options) : dir_(temp_dir()) {
  std::string why;
  std::optional<std::string> path = binary(why);
  if (!path) throw std::runtime_error(why);
  port_ = free_tcp_port();
  std::ofstream conf(dir_ + "/tinyproxy.conf");
  conf << "Port " << port_ << "\nListen 127.0.0.1\nTimeout 30\nMaxClients 64\nAllow 127.0.0.1\n"
       << "DisableViaHeader Yes\nLogLevel Info\nLogFile \"" << dir_ << "/tinyproxy.log\"\n";
  for (int p : options.connect_ports) conf << "ConnectPort " << p << "\n";
  if (!options.user.empty()) conf << "BasicAuth " << options.user << " " << options.password << "\n";
  conf.close();
  process_ = std::make_unique<BackgroundProcess>(*path, std::vector<std::string>{"-d", "-c", dir_ + "/tinyproxy.conf"},
                                                 dir_ + "/tinyproxy");
  for (int i = 0; i < 500 && !accepts(port_); ++i) {
    if (!process_->running()) throw std::runtime_error("tinyproxy exited: " + process_->err());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!accepts(port_)) throw std::runtime_error("tinyproxy does not listen on " + std::to_string(port_));
}

std::string Tinyproxy::log() const { return slurp(dir_ + "/tinyproxy.log"); }

ScopedEnvironment::ScopedEnvironment(const std::map<std::string, std::string>& values) {
  for (const auto& [name, value] : values) {
    const char* old = std::getenv(name.c_str());
    saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    if (value.empty()) {
      unsetenv(name.c_str());
    } else {
      setenv(name.c_str(), value.c_str(), 1);
    }
  }
}

ScopedEnvironment::~ScopedEnvironment() {
  for (const auto& [name, value] : saved_) {
    if (value) {
      setenv(name.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
}

}  // namespace cuprobe::test
