// One gRPC call over nghttp2 against a raw unix-socket peer that writes canned HTTP/2
// bytes: a good answer (padding, a trailers block), and each way a broken or hostile
// kubelet can answer (reset, GOAWAY, garbage, a body or header list above the bounds,
// push, an early close) ends as one line naming the socket and the method; gRPC's
// message framing and its limits.
#include "net/grpc_unary_call.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <string>
#include <thread>

#include "common/error.h"
#include "net/http_url.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string u32(std::uint32_t n) {
  std::string s;
  for (int shift = 24; shift >= 0; shift -= 8) s += static_cast<char>((n >> shift) & 0xff);
  return s;
}

std::string frame(int type, int flags, std::uint32_t stream, const std::string& payload) {
  return u32(static_cast<std::uint32_t>(payload.size())).substr(1) + static_cast<char>(type) +
         static_cast<char>(flags) + u32(stream) + payload;
}

// An HPACK literal without indexing, no Huffman (names and values under 127 bytes).
std::string literal(const std::string& name, const std::string& value) {
  return std::string(1, '\0') + static_cast<char>(name.size()) + name + static_cast<char>(value.size()) + value;
}

constexpr int kData = 0, kHeaders = 1, kRst = 3, kSettings = 4, kPush = 5, kGoaway = 7, kContinuation = 9;
constexpr int kEndStream = 1, kEndHeaders = 4, kPadded = 8;

const std::string kSettingsFrame = frame(kSettings, 0, 0, "");
const std::string kOkHeaders =
    frame(kHeaders, kEndHeaders, 1, literal(":status", "200") + literal("content-type", "application/grpc"));
const std::string kOkTrailers = frame(kHeaders, kEndHeaders | kEndStream, 1, literal("grpc-status", "0"));

// Listens on a unix socket; the one connection gets `reply`, then its write side is shut and
// what the client sends is read until it closes.
class RawPeer {
 public:
  RawPeer(const std::string& dir, std::string reply) : path_(dir + "/peer.sock"), reply_(std::move(reply)) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof addr.sun_path - 1);
    fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (bind(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || listen(fd_, 1) != 0) {
      ADD_FAILURE() << "cannot listen on " << path_;
    }
    thread_ = std::thread([this] { serve(); });
  }
  ~RawPeer() {
    thread_.join();
    close(fd_);
  }
  const std::string& path() const { return path_; }

 private:
  void serve() {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0) return;
    int c = accept(fd_, nullptr, nullptr);
    if (c < 0) return;
    (void)!send(c, reply_.data(), reply_.size(), MSG_NOSIGNAL);
    shutdown(c, SHUT_WR);
    std::array<char, 4096> buf;
    pollfd q{c, POLLIN, 0};
    while (poll(&q, 1, 5000) > 0 && recv(c, buf.data(), buf.size(), 0) > 0) {
    }
    close(c);
  }
  std::string path_, reply_;
  int fd_ = -1;
  std::thread thread_;
};

GrpcCall call_to(const RawPeer& peer, std::size_t max_message = 1024) {
  GrpcCall call;
  call.socket_path = peer.path();
  call.method = "/v1.PodResourcesLister/List";
  call.timeout_ms = 3000;
  call.max_message = max_message;
  return call;
}

// The call against `reply` fails with one line that holds `part`.
void expect_error(const std::string& reply, const std::string& part, std::size_t max_message = 1024) {
  RawPeer peer(test::temp_dir(), reply);
  try {
    grpc_unary_call(call_to(peer, max_message), "");
    ADD_FAILURE() << "no error for " << part;
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find(part), std::string::npos)
        << what << " (expected: " << part << "; reply of " << reply.size() << " bytes)";
    EXPECT_NE(what.find("peer.sock: /v1.PodResourcesLister/List: "), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(GrpcUnaryCall, ReadsPaddedDataAndTrailers) {
  std::string body = grpc_frame("hello");
  RawPeer peer(test::temp_dir(), kSettingsFrame + kOkHeaders +
                                     frame(kData, kPadded, 1, std::string(1, '\3') + body + std::string(3, '\0')) +
                                     kOkTrailers);
  EXPECT_EQ(grpc_unary_call(call_to(peer), "req"), "hello");
}

TEST(GrpcUnaryCall, TrailersOnlyErrorStatus) {
  expect_error(kSettingsFrame + frame(kHeaders, kEndHeaders | kEndStream, 1,
                                      literal(":status", "200") + literal("grpc-status", "12") +
                                          literal("grpc-message", "not%20here")),
               "grpc-status 12 UNIMPLEMENTED: not here");
}

TEST(GrpcUnaryCall, HostilePeersAreOneLine) {
  expect_error(kSettingsFrame + frame(kRst, 0, 1, u32(8)), "error code 8");
  expect_error(kSettingsFrame + frame(kGoaway, 0, 0, u32(0) + u32(11) + "calm down"),
               "GOAWAY, error code 11: calm down");
  expect_error("this is not HTTP/2 at all, not even close", "HTTP/2: ");
  expect_error(kSettingsFrame + kOkHeaders + frame(kData, 0, 1, std::string(2000, 'x')), "larger than 1029 bytes");
  expect_error(kSettingsFrame + kOkHeaders, "closed before the response ended");
  expect_error(kSettingsFrame + frame(kData, 0, 3, "x"), "HTTP/2: ");
  std::string many;  // a header list of about 80 KiB over CONTINUATIONs
  std::string value(100, 'v');
  for (int i = 0; i < 600; ++i) many += literal("x-" + std::to_string(i), value);
  std::string frames = frame(kHeaders, 0, 1, literal(":status", "200"));
  for (std::size_t at = 0; at < many.size(); at += 16000) {
    bool last = at + 16000 >= many.size();
    frames += frame(kContinuation, last ? kEndHeaders : 0, 1, many.substr(at, 16000));
  }
  expect_error(kSettingsFrame + frames, "header block too large");
  expect_error(kSettingsFrame + frame(kHeaders, kEndHeaders | kEndStream, 1, literal(":status", "503")),
               "HTTP status 503");
}

TEST(GrpcUnaryCall, GoawayThatLetsTheStreamFinishIsFine) {
  RawPeer peer(test::temp_dir(), kSettingsFrame + frame(kGoaway, 0, 0, u32(1) + u32(0)) + kOkHeaders +
                                     frame(kData, 0, 1, grpc_frame("ok")) + kOkTrailers);
  EXPECT_EQ(grpc_unary_call(call_to(peer), ""), "ok");
}

// A pushed stream is refused; its header block is not taken for the response's.
TEST(GrpcUnaryCall, PushIsRefusedAndTheResponseStands) {
  std::string push = frame(kPush, kEndHeaders, 1,
                           u32(2) + literal(":method", "GET") + literal(":scheme", "http") + literal(":path", "/x") +
                               literal(":authority", "localhost"));
  RawPeer peer(test::temp_dir(),
               kSettingsFrame + push + kOkHeaders + frame(kData, 0, 1, grpc_frame("ok")) + kOkTrailers);
  EXPECT_EQ(grpc_unary_call(call_to(peer), ""), "ok");
}

TEST(GrpcFraming, OneMessageAndItsLimits) {
  EXPECT_EQ(grpc_unframe(grpc_frame("abc"), 100), "abc");
  EXPECT_EQ(grpc_unframe(grpc_frame(""), 100), "");
  EXPECT_THROW(grpc_unframe("", 100), Error);
  EXPECT_THROW(grpc_unframe(std::string("\0\0\0", 3), 100), Error);
  EXPECT_THROW(grpc_unframe(std::string("\1\0\0\0\0", 5), 100), Error);  // compressed
  EXPECT_THROW(grpc_unframe(grpc_frame("abc").substr(0, 7), 100), Error);
  EXPECT_THROW(grpc_unframe(grpc_frame("abc") + grpc_frame("d"), 100), Error);
  EXPECT_THROW(grpc_unframe(std::string("\0\x7f\xff\xff\xff", 5), 100), Error);  // 2 GiB declared
  EXPECT_EQ(percent_decode("no%20access%3A%zz"), "no access:%zz");
  EXPECT_EQ(grpc_status_name(14), "UNAVAILABLE");
}

}  // namespace
}  // namespace cuprobe
