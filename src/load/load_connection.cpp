// The bytes of the load loop (see load/load_loop.h): connecting (each resolved
// address in turn), the proxy's CONNECT tunnel, TLS, reading with the kernel's
// receive timestamps, and keep-alive: a connection whose response was read to
// its end waits, out of epoll, for the next request; a request that finds its
// reused connection closed before the request was fully written is sent once
// more on a fresh one. A request written whole is never sent again (the server
// may have read and processed it: RFC 9110 9.2.2): it fails.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/clock.h"
#include "load/load_loop.h"

namespace cuprobe::load_loop {
namespace {

// A response that said [DONE] has this long to end its body before its connection is dropped.
constexpr std::int64_t kDrainNs = 200'000'000;

const char* connect_reason(int err) { return err == ECONNREFUSED ? "connect_refused" : "connect_failed"; }

}  // namespace

std::string error_text(int err) { return std::strerror(err); }

void Loop::watch(Connection* c, int op, bool want_out) {
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | (want_out ? EPOLLOUT : 0u);
  ev.data.ptr = c;
  c->want_out = want_out;
  epoll_ctl(ep_, op, c->fd, &ev);
}

// Request c goes out on an idle connection when one is parked, else on a new one.
void Loop::start(Connection* c) {
  if (take_idle(c)) return;
  int err = 0;
  if (!connect_next(c, err)) {
    c->fail(connect_reason(err), "connect(): " + error_text(err) + proxy_note_);
    finish(c, mono_ns());
  }
}

// Starts a connection on the next address not tried yet; false with errno's
// value in err when every address failed at once.
bool Loop::connect_next(Connection* c, int& err) {
  while (c->attempts < addrs_.size()) {
    c->address = (preferred_ + c->attempts++) % addrs_.size();
    const SocketAddress& a = addrs_[c->address];
    if (c->fd >= 0) close(c->fd);
    c->fd = socket(a.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
      err = errno;
      return false;  // out of descriptors or memory: another address will not help
    }
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(c->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    if (connect(c->fd, a.get(), a.length) < 0 && errno != EINPROGRESS) {
      err = errno;
      continue;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP;
    ev.data.ptr = c;
    c->want_out = true;
    if (epoll_ctl(ep_, EPOLL_CTL_ADD, c->fd, &ev) < 0) {
      err = errno;
      return false;
    }
    return true;
  }
  return false;
}

// Keep-alive: the most recently parked connection that the server has not
// closed meanwhile carries the request. A peek tells a closed one (end of
// stream, or bytes nobody asked for) without blocking.
bool Loop::take_idle(Connection* c) {
  while (!idle_.empty()) {
    IdleSocket s = std::move(idle_.back());
    idle_.pop_back();
    char byte = 0;
    ssize_t n = recv(s.fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (!(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))) {
      close(s.fd);
      continue;
    }
    c->fd = s.fd;
    c->tls = std::move(s.tls);
    c->address = s.address;
    c->connected = true;
    c->reused = true;
    c->request = c->out;  // for a second try, should this connection turn out closed
    ++result_.requests_reused;
    watch(c, EPOLL_CTL_ADD, true);
    send_request(c);
    return true;
  }
  return false;
}

// After its response: the connection waits for the next request when it can
// carry one (read to its end, HTTP/1.1 without "Connection: close"), else closes.
void Loop::park(Connection* c) {
  if (c->fd < 0) return;
  const HttpResponseParser& http = c->response.http;
  bool reusable = result_.keep_alive && c->connected && !c->tunnel && http.done() && http.keep_alive() && c->writing &&
                  c->out.empty() && !(c->tls && (c->tls->closed() || c->tls->failed())) &&
                  (cap() <= 0 || idle_.size() < static_cast<std::size_t>(cap()));
  if (reusable) {
    epoll_ctl(ep_, EPOLL_CTL_DEL, c->fd, nullptr);
    idle_.push_back(IdleSocket{c->fd, std::move(c->tls), c->address});
  } else {
    close(c->fd);
  }
  c->fd = -1;
}

// A reused connection that the server had closed (its idle timeout) before the
// request was fully written: the request goes again on a new connection, once.
// False when that cannot start (the request then failed).
bool Loop::retry_on_fresh_connection(Connection* c) {
  epoll_ctl(ep_, EPOLL_CTL_DEL, c->fd, nullptr);
  close(c->fd);
  c->fd = -1;
  c->tls.reset();
  c->connected = c->reused = c->request_sent = false;
  c->writing = true;
  c->out = std::move(c->request);
  c->request.clear();
  c->out_off = 0;
  c->attempts = 0;
  ++result_.retries;
  int err = 0;
  if (connect_next(c, err)) return true;
  c->fail(connect_reason(err), "connect(): " + error_text(err) + proxy_note_);
  return false;
}

// A new connection is up: through a proxy to an https server, the tunnel first.
bool Loop::on_connected(Connection* c) {
  c->connected = true;
  preferred_ = c->address;
  ++result_.connections_opened;
  if (opt_.proxy && opt_.tls) {
    c->request = std::move(c->out);
    c->out = connect_request(origin_, *opt_.proxy);
    c->out_off = 0;
    c->tunnel = std::make_unique<ConnectReply>(origin_, *opt_.proxy);
    flush_out(c);
    return true;
  }
  return send_request(c);
}

// c->out holds the request: encrypted first when the connection speaks TLS
// (a new session starts with its handshake). False when c was finished.
bool Loop::send_request(Connection* c) {
  if (opt_.tls) {
    if (!c->tls) c->tls = std::make_unique<TlsSession>(opt_.tls, opt_.host);
    c->tls->write(c->out);
    c->out.clear();
    c->tls->take_outgoing(c->out);
    if (c->tls->failed()) {
      c->fail("tls_failed", c->tls->error());
      finish(c, mono_ns());
      return false;
    }
  }
  flush_out(c);
  return true;
}

void Loop::on_tunnel_reply(Connection* c, std::string_view data, std::int64_t now) {
  switch (c->tunnel->feed(data)) {
    case ConnectReply::State::kReading:
      return;
    case ConnectReply::State::kFailed:
      c->fail("proxy_failed", c->tunnel->error());
      finish(c, now);
      return;
    case ConnectReply::State::kEstablished:
      break;
  }
  c->tunnel.reset();  // nothing follows the answer before the client's first TLS record
  c->out = std::move(c->request);
  c->request.clear();
  c->out_off = 0;
  send_request(c);
}

void Loop::on_ready(Connection* c, std::uint32_t events) {
  if (!c->connected) {
    if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) return;
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      if (connect_next(c, err)) return;  // the next address is being tried
      c->fail(connect_reason(err), "connect(): " + error_text(err) + proxy_note_);
      finish(c, mono_ns());
      return;
    }
    if (!on_connected(c)) return;
  }
  if (events & EPOLLOUT) flush_out(c);
  if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) on_readable(c);
}

// Arrival time of the bytes just read: the kernel's receive timestamp
// (SO_TIMESTAMPNS, taken when the segment reached this host's network stack)
// mapped onto the monotonic clock, so a client thread that wakes up a little
// late does not stretch TTFT or ITL. Segments that queue up unread are merged
// by the kernel under the newest one's timestamp, so a client starved of CPU
// for longer than a token interval still sees events bunched together.
// Without a timestamp: the time read() returned.
std::int64_t Loop::arrival_time(msghdr& msg, std::int64_t now) {
  ++result_.reads;
  for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
    if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPNS) continue;
    timespec ts;
    std::memcpy(&ts, CMSG_DATA(cm), sizeof ts);
    std::int64_t t = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec - result_.realtime_offset_ns;
    // A stamp from the future or from long ago means the clocks moved: keep ours.
    if (t <= now && now - t < 1'000'000'000) {
      ++result_.reads_kernel_stamped;
      return t;
    }
  }
  return now;
}

// The connection can bring no more: decide with what arrived (or try again).
void Loop::end_of_stream(Connection* c, const std::string& why, std::int64_t now) {
  if (c->reused && !c->response_started && !c->request_sent && retry_on_fresh_connection(c)) return;
  StreamResponse& r = c->response;
  if (c->tunnel && !c->finished()) {
    c->fail("proxy_failed", "the proxy " + opt_.proxy->display() + " closed the connection before answering CONNECT");
  } else if (c->reused && !c->response_started && !c->finished()) {
    c->fail("server_closed",
            "the server closed its kept-alive connection after the whole request was sent; not sent "
            "again (it may have been processed)" +
                (why.empty() ? std::string() : ": " + why));
  } else if (!c->finished()) {
    if (r.http.finish_on_eof()) {
      r.conclude();
    } else {
      c->fail(r.http.error(), why.empty() ? r.http.error_detail() : "connection error: " + why);
    }
  }
  finish(c, now);
}

void Loop::on_readable(Connection* c) {
  iovec iov{buf_, sizeof buf_};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) + 64];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n = recvmsg(c->fd, &msg, 0);
  std::int64_t now = mono_ns();
  if (n > 0) now = arrival_time(msg, now);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (n <= 0) {
    end_of_stream(c, n == 0 ? "" : error_text(errno), now);
    return;
  }
  std::string_view data(buf_, static_cast<std::size_t>(n));
  if (c->tunnel) {
    on_tunnel_reply(c, data, now);
    return;
  }
  if (c->tls) {  // the plaintext arrived when its ciphertext did
    plain_.clear();
    if (!c->tls->receive(data, plain_)) {
      c->fail("tls_failed", c->tls->error());
      finish(c, now);
      return;
    }
    c->tls->take_outgoing(c->out);
    flush_out(c);
    data = plain_;
  }
  on_response_bytes(c, data, now);
}

void Loop::on_response_bytes(Connection* c, std::string_view data, std::int64_t now) {
  StreamResponse& r = c->response;
  r.now = now;
  if (!data.empty()) c->response_started = true;
  if (!data.empty() && !r.http.feed(data, r)) {
    c->fail(r.http.error(), r.http.error_detail());
  } else if (c->drained_at == 0 && (r.saw_done || r.http.done())) {
    r.conclude();
  } else if (c->tls && c->tls->closed()) {
    end_of_stream(c, "", now);
    return;
  }
  if (!c->finished()) return;
  // Decided at [DONE]; a connection to keep is read to the body's end first (its end time stays).
  if (result_.keep_alive && r.saw_done && !r.http.done() && !r.http.failed() && r.http.keep_alive()) {
    if (c->drained_at == 0) {
      c->drained_at = now;
      c->deadline = std::min(c->deadline, now + kDrainNs);
    }
    return;
  }
  finish(c, now);
}

// Sends what is queued in c->out; keeps EPOLLOUT asked for exactly while
// something is left.
void Loop::flush_out(Connection* c) {
  while (c->writing && c->out_off < c->out.size()) {
    ssize_t n = send(c->fd, c->out.data() + c->out_off, c->out.size() - c->out_off, MSG_NOSIGNAL);
    if (n > 0) {
      c->out_off += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EAGAIN) {
      break;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      c->writing = false;  // the server may already have answered (e.g. 413): read what it said
    }
  }
  bool left = c->writing && c->out_off < c->out.size();
  if (!left && c->writing && !c->tunnel) c->request_sent = true;
  if (!left) {
    std::string().swap(c->out);
    c->out_off = 0;
  }
  if (left != c->want_out) watch(c, EPOLL_CTL_MOD, left);
}

}  // namespace cuprobe::load_loop
