#include "support/scripted_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace cuprobe::test {

std::string ScriptedRequest::header(const std::string& name) const {
  for (std::size_t pos = head.find("\r\n"); pos != std::string::npos; pos = head.find("\r\n", pos + 2)) {
    std::size_t start = pos + 2;
    std::size_t colon = head.find(':', start);
    std::size_t end = head.find("\r\n", start);
    if (colon == std::string::npos || (end != std::string::npos && colon > end)) continue;
    if (colon - start == name.size() && strncasecmp(head.c_str() + start, name.c_str(), name.size()) == 0) {
      std::string value = head.substr(colon + 1, (end == std::string::npos ? head.size() : end) - colon - 1);
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      return value;
    }
  }
  return "";
}

std::string http_response(int code, const std::string& body, const std::string& content_type) {
  return "HTTP/1.1 " + std::to_string(code) + " X\r\nContent-Type: " + content_type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

std::string sse_response(const std::vector<std::string>& events) {
  std::string r = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
  for (const auto& e : events) r += "data: " + e + "\n\n";
  return r;
}

struct ScriptedServer::Impl {
  ScriptedHandler handler;
  std::shared_ptr<const TlsContext> tls;
  int listen_fd = -1, wake_fd = -1;
  std::uint16_t port = 0;
  std::thread thread;
  mutable std::mutex mu;
  std::vector<ScriptedRequest> requests;
  std::vector<int> held;  // silent connections, closed at the end
  bool keep_alive = false;
  std::uint64_t connections = 0;

  // The answer leaves the connection open (keep_alive): a length, no "Connection: close".
  static bool keeps_open(const std::string& answer) {
    ScriptedRequest head;  // header() reads any head
    head.head = answer.substr(0, answer.find("\r\n\r\n"));
    return answer.starts_with("HTTP/1.1") && !head.header("Content-Length").empty() &&
           strcasecmp(head.header("Connection").c_str(), "close") != 0;
  }

  bool wait_readable(int fd) {
    pollfd p[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
    return poll(p, 2, 5000) > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR)) && !(p[1].revents & POLLIN);
  }

  struct Channel {
    int fd;
    std::unique_ptr<TlsSession> tls;
    void send_raw(const std::string& data) const {
      for (std::size_t off = 0; off < data.size();) {
        ssize_t n = send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return;
        off += static_cast<std::size_t>(n);
      }
    }
    void send_all(const std::string& data) const {
      if (!tls) return send_raw(data);
      tls->write(data);
      std::string out;
      tls->take_outgoing(out);
      send_raw(out);
    }
    // Appends the plaintext of one read; false when the peer went away or TLS failed.
    bool read_some(std::string& in) const {
      char buf[16384];
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) return false;
      if (!tls) {
        in.append(buf, static_cast<std::size_t>(n));
        return true;
      }
      bool ok = tls->receive(std::string_view(buf, static_cast<std::size_t>(n)), in);
      std::string out;
      tls->take_outgoing(out);  // the handshake's replies
      send_raw(out);
      return ok;
    }
  };

  // False when the peer went away before a whole request arrived.
  bool read_request(const Channel& ch, ScriptedRequest& req) {
    std::string in;
    std::size_t need = std::string::npos;
    while (need == std::string::npos || in.size() < need) {
      if (!wait_readable(ch.fd) || !ch.read_some(in)) return false;
      std::size_t end = in.find("\r\n\r\n");
      if (need == std::string::npos && end != std::string::npos) {
        req.head = in.substr(0, end);
        std::string length = req.header("Content-Length");
        need = end + 4 + (length.empty() ? 0 : std::stoul(length));
      }
    }
    req.body = in.substr(req.head.size() + 4);
    std::size_t sp1 = req.head.find(' '), sp2 = req.head.find(' ', sp1 + 1);
    req.method = req.head.substr(0, sp1);
    req.path = req.head.substr(sp1 + 1, sp2 - sp1 - 1);
    return true;
  }

  void serve(int fd) {
    Channel ch{fd, tls ? std::make_unique<TlsSession>(tls, "") : nullptr};
    {
      std::lock_guard<std::mutex> lock(mu);
      ++connections;
    }
    while (true) {
      ScriptedRequest req;
      if (!read_request(ch, req)) {
        close(fd);
        return;
      }
      {
        std::lock_guard<std::mutex> lock(mu);
        requests.push_back(req);
      }
      std::string answer = handler(req);
      if (answer.empty()) {
        held.push_back(fd);
        return;
      }
      ch.send_all(answer);
      if (!keep_alive || !keeps_open(answer)) break;
    }
    shutdown(fd, SHUT_WR);
    close(fd);
  }

  void loop() {
    while (true) {
      pollfd p[2] = {{listen_fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
      if (poll(p, 2, -1) < 0 && errno != EINTR) return;
      if (p[1].revents & POLLIN) return;
      if (!(p[0].revents & POLLIN)) continue;
      int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd >= 0) serve(fd);
    }
  }
};

ScriptedServer::ScriptedServer(ScriptedHandler handler, std::shared_ptr<const TlsContext> tls, bool keep_alive)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.keep_alive = keep_alive;
  s.handler = std::move(handler);
  s.tls = std::move(tls);
  s.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  setsockopt(s.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s.listen_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || listen(s.listen_fd, 256) < 0) {
    close(s.listen_fd);
    throw std::runtime_error(std::string("scripted server: cannot listen: ") + std::strerror(errno));
  }
  socklen_t len = sizeof addr;
  getsockname(s.listen_fd, reinterpret_cast<sockaddr*>(&addr), &len);
  s.port = ntohs(addr.sin_port);
  s.wake_fd = eventfd(0, EFD_CLOEXEC);
  s.thread = std::thread([&s] { s.loop(); });
}

ScriptedServer::~ScriptedServer() {
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t r = write(impl_->wake_fd, &one, sizeof one);
  impl_->thread.join();
  for (int fd : impl_->held) close(fd);
  close(impl_->listen_fd);
  close(impl_->wake_fd);
}

std::uint16_t ScriptedServer::port() const { return impl_->port; }
std::string ScriptedServer::url() const {
  return (impl_->tls ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(impl_->port);
}

bool make_self_signed_certificate(const std::string& dir, const std::string& subject_alt_name) {
  std::vector<std::string> args = {"openssl",  "req",
                                   "-x509",    "-newkey",
                                   "rsa:2048", "-nodes",
                                   "-days",    "2",
                                   "-subj",    "/CN=cuprobe test",
                                   "-addext",  "subjectAltName=" + subject_alt_name,
                                   "-keyout",  dir + "/key.pem",
                                   "-out",     dir + "/cert.pem"};
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp("openssl", argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::vector<ScriptedRequest> ScriptedServer::requests() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->requests;
}

std::uint64_t ScriptedServer::connections() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->connections;
}

}  // namespace cuprobe::test
