// A slowloris client for the server tests: sockets that connect to
// 127.0.0.1:PORT, send the start of a request and never finish it. With
// keep_open, a thread reconnects every socket the server closes, so the
// pressure lasts until the object is destroyed.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cuprobe::test {

class StalledClients {
 public:
  StalledClients(int port, std::size_t count, bool keep_open = false,
                 std::string partial_request = "GET /metrics HTTP/1.1\r\n");
  ~StalledClients();
  StalledClients(const StalledClients&) = delete;
  StalledClients& operator=(const StalledClients&) = delete;

  std::size_t connected() const { return connected_; }  // sockets that connected and sent their start
  // Sockets the server has closed so far (each counted once; with keep_open, then reopened).
  std::size_t closed_by_server();

 private:
  void reopen_closed();
  int open_one() const;

  int port_;
  std::string partial_;
  std::vector<int> fds_;
  std::size_t connected_ = 0;
  std::size_t closed_ = 0;
  std::mutex mutex_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Whether the server closed fd (end of stream or reset) within timeout_ms; what it sent before is
// appended to *received.
bool closed_by_peer(int fd, int timeout_ms, std::string* received = nullptr);

}  // namespace cuprobe::test
