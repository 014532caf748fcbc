// TLS over sockets that cuprobe reads and writes itself: the session works on
// memory buffers (ciphertext in, plaintext out and back), so the load loop keeps
// its non-blocking epoll I/O and the kernel's receive timestamps of every
// segment. Certificates are verified against the system CA store, or a CA file
// (--cacert), unless verification is turned off (--insecure). OpenSSL is linked
// the normal way when libssl-dev was found at build time; a cuprobe built
// without it refuses https with one line (tls_available()).
#pragma once

#include <memory>
#include <string>
#include <string_view>

// OpenSSL's own types (openssl/types.h), declared here so that only tls_session.cpp includes its headers.
struct ssl_ctx_st;
struct ssl_st;
struct bio_st;

namespace cuprobe {

// Whether this cuprobe was built with OpenSSL; when not, why, in one line.
bool tls_available(std::string& why);

struct TlsOptions {
  std::string ca_file;    // "" = the system's CA store
  bool insecure = false;  // no certificate or host name check
};

class TlsContext {
 public:
  // Throws cuprobe::Error (one line) when cuprobe was built without OpenSSL or the CA file cannot be read.
  static std::shared_ptr<const TlsContext> client(const TlsOptions& options);
  // A server's context (the test suite's TLS server).
  static std::shared_ptr<const TlsContext> server(const std::string& cert_file, const std::string& key_file);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  ssl_ctx_st* get() const { return ctx_; }
  bool is_server() const { return server_; }
  bool verifies() const { return verify_; }

 private:
  TlsContext() = default;
  ssl_ctx_st* ctx_ = nullptr;
  bool server_ = false, verify_ = true;
};

class TlsSession {
 public:
  // host: the name or address the client connects to (SNI and the certificate
  // check); ignored by a server session.
  TlsSession(std::shared_ptr<const TlsContext> context, const std::string& host);
  ~TlsSession();
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  // Plaintext for the peer, encrypted as soon as the handshake allows.
  bool write(std::string_view plaintext);
  // Ciphertext from the socket; the plaintext it completes is appended to `plaintext`.
  // False once the session failed (error()).
  bool receive(std::string_view ciphertext, std::string& plaintext);
  // Appends the ciphertext waiting to be sent (handshake, records) to `out`.
  void take_outgoing(std::string& out);
  bool closed() const { return closed_; }  // the peer sent close_notify
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  bool progress(std::string* plaintext);
  bool fail(int ret, const char* during);

  std::shared_ptr<const TlsContext> context_;
  ssl_st* ssl_ = nullptr;
  bio_st* in_ = nullptr;   // owned by ssl_
  bio_st* out_ = nullptr;  // owned by ssl_
  std::string pending_;    // plaintext not yet taken by SSL_write
  bool handshake_done_ = false;
  bool closed_ = false;
  std::string error_;
};

}  // namespace cuprobe
