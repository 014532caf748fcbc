#include "net/tls_session.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "support/run_cuprobe.h"
#include "support/scripted_server.h"

namespace cuprobe {
namespace {

// A client and a server session joined by memory: what one sends, the other receives.
struct Pair {
  TlsSession client, server;
  std::string client_got, server_got;
  Pair(std::shared_ptr<const TlsContext> c, std::shared_ptr<const TlsContext> s, const std::string& host)
      : client(std::move(c), host), server(std::move(s), "") {}
  bool pump() {
    for (int round = 0; round < 20; ++round) {
      std::string a, b;
      client.take_outgoing(a);
      if (!a.empty() && !server.receive(a, server_got)) return false;
      server.take_outgoing(b);
      if (!b.empty() && !client.receive(b, client_got)) return false;
      if (a.empty() && b.empty()) return true;
    }
    return true;
  }
};

class TlsSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!tls_available(why)) GTEST_SKIP() << why;
    dir_ = test::temp_dir();
    if (!test::make_self_signed_certificate(dir_, "IP:127.0.0.1,DNS:localhost")) GTEST_SKIP() << "no openssl command";
    server_ = TlsContext::server(dir_ + "/cert.pem", dir_ + "/key.pem");
  }
  std::string dir_;
  std::shared_ptr<const TlsContext> server_;
};

TEST_F(TlsSessionTest, VerifiedExchangeBothWays) {
  for (const char* host : {"127.0.0.1", "localhost"}) {
    Pair p(TlsContext::client({dir_ + "/cert.pem", false}), server_, host);
    ASSERT_TRUE(p.client.write("GET / HTTP/1.1\r\n\r\n"));
    ASSERT_TRUE(p.pump()) << p.client.error() << p.server.error();
    EXPECT_EQ(p.server_got, "GET / HTTP/1.1\r\n\r\n") << host;
    ASSERT_TRUE(p.server.write("HTTP/1.1 200 OK\r\n\r\n"));
    ASSERT_TRUE(p.pump());
    EXPECT_EQ(p.client_got, "HTTP/1.1 200 OK\r\n\r\n") << host;
  }
}

TEST_F(TlsSessionTest, UntrustedOrMismatchedCertificateFails) {
  Pair untrusted(TlsContext::client({}), server_, "127.0.0.1");  // the system store does not know it
  untrusted.client.write("x");
  EXPECT_FALSE(untrusted.pump());
  EXPECT_NE(untrusted.client.error().find("certificate verify failed"), std::string::npos) << untrusted.client.error();
  Pair wrong_host(TlsContext::client({dir_ + "/cert.pem", false}), server_, "127.0.0.2");
  wrong_host.client.write("x");
  EXPECT_FALSE(wrong_host.pump());
  EXPECT_NE(wrong_host.client.error().find("certificate verify failed"), std::string::npos);
  Pair insecure(TlsContext::client({"", true}), server_, "127.0.0.2");
  insecure.client.write("x");
  EXPECT_TRUE(insecure.pump()) << insecure.client.error();
  EXPECT_EQ(insecure.server_got, "x");
}

// A server that answers https with plain HTTP (or noise) fails the session cleanly.
TEST_F(TlsSessionTest, GarbageFromThePeerFailsWithAReason) {
  for (std::string garbage : {std::string("HTTP/1.1 400 Bad Request\r\n\r\n"), std::string(3000, '\x16'),
                              std::string("\x16\x03\x03\xff\xff") + std::string(100, '\0')}) {
    TlsSession client(TlsContext::client({"", true}), "127.0.0.1");
    std::string hello, plain;
    client.take_outgoing(hello);
    EXPECT_FALSE(hello.empty());
    EXPECT_FALSE(client.receive(garbage, plain)) << garbage.size();
    EXPECT_TRUE(plain.empty());
    EXPECT_NE(client.error().find("TLS handshake failed"), std::string::npos) << client.error();
    EXPECT_FALSE(client.receive("more", plain));  // a failed session stays failed
  }
}

TEST_F(TlsSessionTest, BadCaFileIsOneLine) {
  try {
    TlsContext::client({dir_ + "/missing.pem", false});
    FAIL() << "accepted a missing CA file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--cacert " + dir_ + "/missing.pem: cannot load"), std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace cuprobe
