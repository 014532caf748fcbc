#include "support/stalled_clients.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace cuprobe::test {

bool closed_by_peer(int fd, int timeout_ms, std::string* received) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0))) <= 0) return false;
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return true;
    if (n > 0 && received) received->append(buf, static_cast<std::size_t>(n));
  }
}

StalledClients::StalledClients(int port, std::size_t count, bool keep_open, std::string partial_request)
    : port_(port), partial_(std::move(partial_request)), fds_(count, -1) {
  for (int& fd : fds_) {
    fd = open_one();
    if (fd >= 0) ++connected_;
  }
  if (keep_open) {
    thread_ = std::thread([this] {
      while (!stop_) {
        reopen_closed();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
  }
}

StalledClients::~StalledClients() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  for (int fd : fds_) {
    if (fd >= 0) close(fd);
  }
}

int StalledClients::open_one() const {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port_));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      send(fd, partial_.data(), partial_.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(partial_.size())) {
    close(fd);
    return -1;
  }
  return fd;
}

void StalledClients::reopen_closed() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (int& fd : fds_) {
    if (fd >= 0 && !closed_by_peer(fd, 0)) continue;
    if (fd >= 0) {
      close(fd);
      ++closed_;
    }
    fd = open_one();
  }
}

std::size_t StalledClients::closed_by_server() {
  if (!thread_.joinable()) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int& fd : fds_) {
      if (fd >= 0 && closed_by_peer(fd, 0)) {
        close(fd);
        fd = -1;
        ++closed_;
      }
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

}  // namespace cuprobe::test
