#include "net/tls_session.h"

#include <arpa/inet.h>

#include <algorithm>
#include <climits>

#include "common/error.h"

#ifdef CUPROBE_HAVE_OPENSSL
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#endif

namespace cuprobe {

#ifndef CUPROBE_HAVE_OPENSSL

// Built without libssl-dev: https is one line, everything else works.
constexpr const char* kNoTls =
    "https: this cuprobe was built without OpenSSL (libssl-dev was absent at build time); install libssl-dev and "
    "rebuild for https";

bool tls_available(std::string& why) {
  why = kNoTls;
  return false;
}
std::shared_ptr<const TlsContext> TlsContext::client(const TlsOptions&) { throw Error(kNoTls); }
std::shared_ptr<const TlsContext> TlsContext::server(const std::string&, const std::string&) { throw Error(kNoTls); }
TlsContext::~TlsContext() = default;
TlsSession::TlsSession(std::shared_ptr<const TlsContext> context, const std::string&) : context_(std::move(context)) {
  error_ = kNoTls;
}
TlsSession::~TlsSession() = default;
bool TlsSession::write(std::string_view) { return false; }
bool TlsSession::receive(std::string_view, std::string&) { return false; }
void TlsSession::take_outgoing(std::string&) {}

#else

namespace {

// The oldest queued OpenSSL error as text ("" when none); clears the queue.
std::string last_error() {
  unsigned long e = ERR_get_error();
  std::string text;
  if (e != 0) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    text = buf;
  }
  ERR_clear_error();
  return text;
}

bool is_ip_literal(const std::string& host) {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

}  // namespace

bool tls_available(std::string&) { return true; }

std::shared_ptr<const TlsContext> TlsContext::client(const TlsOptions& options) {
  std::shared_ptr<TlsContext> c(new TlsContext);
  c->ctx_ = SSL_CTX_new(TLS_client_method());
  if (!c->ctx_) throw Error("https: cannot create a TLS context: " + last_error());
  SSL_CTX_set_min_proto_version(c->ctx_, TLS1_2_VERSION);
  c->verify_ = !options.insecure;
  if (c->verify_) {
    if (!options.ca_file.empty()) {
      if (SSL_CTX_load_verify_locations(c->ctx_, options.ca_file.c_str(), nullptr) != 1) {
        throw Error("--cacert " + options.ca_file + ": cannot load certificates (" + last_error() + ")");
      }
    } else if (SSL_CTX_set_default_verify_paths(c->ctx_) != 1) {
      throw Error("https: cannot load the system CA store (" + last_error() + ")");
    }
    SSL_CTX_set_verify(c->ctx_, SSL_VERIFY_PEER, nullptr);
  } else {
    SSL_CTX_set_verify(c->ctx_, SSL_VERIFY_NONE, nullptr);
  }
  return c;
}

std::shared_ptr<const TlsContext> TlsContext::server(const std::string& cert_file, const std::string& key_file) {
  std::shared_ptr<TlsContext> c(new TlsContext);
  c->server_ = true;
  c->ctx_ = SSL_CTX_new(TLS_server_method());
  if (!c->ctx_ || SSL_CTX_use_certificate_chain_file(c->ctx_, cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(c->ctx_, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    throw Error("TLS server: cannot load " + cert_file + " / " + key_file + ": " + last_error());
  }
  return c;
}

TlsContext::~TlsContext() {
  if (ctx_) SSL_CTX_free(ctx_);
}

TlsSession::TlsSession(std::shared_ptr<const TlsContext> context, const std::string& host)
    : context_(std::move(context)) {
  ssl_ = SSL_new(context_->get());
  in_ = BIO_new(BIO_s_mem());
  out_ = BIO_new(BIO_s_mem());
  if (!ssl_ || !in_ || !out_) {
    error_ = "TLS: out of memory";
    if (ssl_) SSL_free(ssl_);
    ssl_ = nullptr;  // the destructor frees the BIOs
    return;
  }
  SSL_set_bio(ssl_, in_, out_);
  if (context_->is_server()) {
    SSL_set_accept_state(ssl_);
    return;
  }
  SSL_set_connect_state(ssl_);
  if (is_ip_literal(host)) {
    if (context_->verifies()) X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_), host.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl_, host.c_str());
    if (context_->verifies()) SSL_set1_host(ssl_, host.c_str());
  }
  progress(nullptr);  // the ClientHello
}

TlsSession::~TlsSession() {
  if (ssl_) {
    SSL_free(ssl_);  // frees both memory BIOs
  } else {           // SSL_new failed: the BIOs were never handed over
    if (in_) BIO_free(in_);
    if (out_) BIO_free(out_);
  }
}

bool TlsSession::fail(int ret, const char* during) {
  int code = SSL_get_error(ssl_, ret);
  if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE) return true;
  if (code == SSL_ERROR_ZERO_RETURN) {
    closed_ = true;
    return true;
  }
  long verify = SSL_get_verify_result(ssl_);
  std::string detail = last_error();
  if (!handshake_done_ && verify != X509_V_OK) {
    error_ = std::string("certificate verify failed: ") + X509_verify_cert_error_string(verify) +
             " (--cacert FILE trusts a CA, --insecure skips the check)";
  } else {
    error_ = std::string("TLS ") + during + " failed" + (detail.empty() ? "" : ": " + detail);
  }
  return false;
}

// Moves the session along: handshake, queued plaintext, records to decrypt.
bool TlsSession::progress(std::string* plaintext) {
  if (!error_.empty()) return false;
  ERR_clear_error();  // SSL_get_error reads the queue: it must hold only this call's errors
  if (!handshake_done_) {
    int r = SSL_do_handshake(ssl_);
    if (r != 1) return fail(r, "handshake");
    handshake_done_ = true;
  }
  while (!pending_.empty()) {
    int n = SSL_write(ssl_, pending_.data(), static_cast<int>(std::min<std::size_t>(pending_.size(), INT_MAX)));
    if (n <= 0) return fail(n, "write");
    pending_.erase(0, static_cast<std::size_t>(n));
  }
  if (!plaintext) return true;
  char buf[16384];
  while (!closed_) {
    int n = SSL_read(ssl_, buf, sizeof buf);
    if (n <= 0) {
      int code = SSL_get_error(ssl_, n);
      if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE) return true;
      return fail(n, "read");
    }
    plaintext->append(buf, static_cast<std::size_t>(n));
  }
  return true;
}

bool TlsSession::write(std::string_view plaintext) {
  pending_.append(plaintext);
  return progress(nullptr);
}

bool TlsSession::receive(std::string_view ciphertext, std::string& plaintext) {
  if (!error_.empty()) return false;
  while (!ciphertext.empty()) {
    int n = BIO_write(in_, ciphertext.data(), static_cast<int>(std::min<std::size_t>(ciphertext.size(), INT_MAX)));
    if (n <= 0) {
      error_ = "TLS: cannot buffer received data";
      return false;
    }
    ciphertext.remove_prefix(static_cast<std::size_t>(n));
  }
  return progress(&plaintext);
}

void TlsSession::take_outgoing(std::string& out) {
  if (!ssl_) return;
  char buf[16384];
  while (BIO_ctrl_pending(out_) > 0) {
    int n = BIO_read(out_, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

#endif  // CUPROBE_HAVE_OPENSSL

}  // namespace cuprobe
