#include "net/tls_session.h"

#include <arpa/inet.h>

#include <algorithm>
#include <climits>

#include "common/error.h"

namespace cuprobe {
namespace {

const TlsLibrary& load_library() {
  std::string why;
  const TlsLibrary* lib = tls_library(why);
  if (!lib) throw Error(why);
  return *lib;
}

bool is_ip_literal(const std::string& host) {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

}  // namespace

std::shared_ptr<const TlsContext> TlsContext::client(const TlsOptions& options) {
  const TlsLibrary& lib = load_library();
  std::shared_ptr<TlsContext> c(new TlsContext);
  c->lib_ = &lib;
  c->ctx_ = lib.SSL_CTX_new(lib.TLS_client_method());
  if (!c->ctx_) throw Error("https: cannot create a TLS context: " + lib.last_error());
  lib.SSL_CTX_ctrl(c->ctx_, TlsLibrary::kCtrlSetMinProtoVersion, TlsLibrary::kTls12Version, nullptr);
  c->verify_ = !options.insecure;
  if (c->verify_) {
    if (!options.ca_file.empty()) {
      if (lib.SSL_CTX_load_verify_locations(c->ctx_, options.ca_file.c_str(), nullptr) != 1) {
        throw Error("--cacert " + options.ca_file + ": cannot load certificates (" + lib.last_error() + ")");
      }
    } else if (lib.SSL_CTX_set_default_verify_paths(c->ctx_) != 1) {
      throw Error("https: cannot load the system CA store (" + lib.last_error() + ")");
    }
    lib.SSL_CTX_set_verify(c->ctx_, TlsLibrary::kVerifyPeer, nullptr);
  } else {
    lib.SSL_CTX_set_verify(c->ctx_, TlsLibrary::kVerifyNone, nullptr);
  }
  return c;
}

std::shared_ptr<const TlsContext> TlsContext::server(const std::string& cert_file, const std::string& key_file) {
  const TlsLibrary& lib = load_library();
  std::shared_ptr<TlsContext> c(new TlsContext);
  c->lib_ = &lib;
  c->server_ = true;
  c->ctx_ = lib.SSL_CTX_new(lib.TLS_server_method());
  if (!c->ctx_ || lib.SSL_CTX_use_certificate_chain_file(c->ctx_, cert_file.c_str()) != 1 ||
      lib.SSL_CTX_use_PrivateKey_file(c->ctx_, key_file.c_str(), TlsLibrary::kFiletypePem) != 1) {
    throw Error("TLS server: cannot load " + cert_file + " / " + key_file + ": " + lib.last_error());
  }
  return c;
}

TlsContext::~TlsContext() {
  if (ctx_) lib_->SSL_CTX_free(ctx_);
}

TlsSession::TlsSession(std::shared_ptr<const TlsContext> context, const std::string& host)
    : context_(std::move(context)), lib_(context_->lib()) {
  ssl_ = lib_.SSL_new(context_->get());
  in_ = lib_.BIO_new(lib_.BIO_s_mem());
  out_ = lib_.BIO_new(lib_.BIO_s_mem());
  if (!ssl_ || !in_ || !out_) {
    error_ = "TLS: out of memory";
    if (ssl_) lib_.SSL_free(ssl_);
    ssl_ = nullptr;  // the destructor frees the BIOs
    return;
  }
  lib_.SSL_set_bio(ssl_, in_, out_);
  if (context_->is_server()) {
    lib_.SSL_set_accept_state(ssl_);
    return;
  }
  lib_.SSL_set_connect_state(ssl_);
  if (is_ip_literal(host)) {
    if (context_->verifies()) lib_.X509_VERIFY_PARAM_set1_ip_asc(lib_.SSL_get0_param(ssl_), host.c_str());
  } else {
    lib_.SSL_ctrl(ssl_, TlsLibrary::kCtrlSetTlsextHostname, TlsLibrary::kTlsextNametypeHostName,
                  const_cast<char*>(host.c_str()));
    if (context_->verifies()) lib_.SSL_set1_host(ssl_, host.c_str());
  }
  progress(nullptr);  // the ClientHello
}

TlsSession::~TlsSession() {
  if (ssl_) {
    lib_.SSL_free(ssl_);  // frees both memory BIOs
  } else {                // SSL_new failed: the BIOs were never handed over
    if (in_) lib_.BIO_free(in_);
    if (out_) lib_.BIO_free(out_);
  }
}

bool TlsSession::fail(int ret, const char* during) {
  int code = lib_.SSL_get_error(ssl_, ret);
  if (code == TlsLibrary::kErrorWantRead || code == TlsLibrary::kErrorWantWrite) return true;
  if (code == TlsLibrary::kErrorZeroReturn) {
    closed_ = true;
    return true;
  }
  long verify = lib_.SSL_get_verify_result(ssl_);
  std::string detail = lib_.last_error();
  if (!handshake_done_ && verify != TlsLibrary::kX509VOk) {
    error_ = std::string("certificate verify failed: ") + lib_.X509_verify_cert_error_string(verify) +
             " (--cacert FILE trusts a CA, --insecure skips the check)";
  } else {
    error_ = std::string("TLS ") + during + " failed" + (detail.empty() ? "" : ": " + detail);
  }
  return false;
}

// Moves the session along: handshake, queued plaintext, records to decrypt.
bool TlsSession::progress(std::string* plaintext) {
  if (!error_.empty()) return false;
  lib_.ERR_clear_error();  // SSL_get_error reads the queue: it must hold only this call's errors
  if (!handshake_done_) {
    int r = lib_.SSL_do_handshake(ssl_);
    if (r != 1) return fail(r, "handshake");
    handshake_done_ = true;
  }
  while (!pending_.empty()) {
    int n = lib_.SSL_write(ssl_, pending_.data(), static_cast<int>(std::min<std::size_t>(pending_.size(), INT_MAX)));
    if (n <= 0) return fail(n, "write");
    pending_.erase(0, static_cast<std::size_t>(n));
  }
  if (!plaintext) return true;
  char buf[16384];
  while (!closed_) {
    int n = lib_.SSL_read(ssl_, buf, sizeof buf);
    if (n <= 0) {
      int code = lib_.SSL_get_error(ssl_, n);
      if (code == TlsLibrary::kErrorWantRead || code == TlsLibrary::kErrorWantWrite) return true;
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
    int n = lib_.BIO_write(in_, ciphertext.data(), static_cast<int>(std::min<std::size_t>(ciphertext.size(), INT_MAX)));
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
  while (lib_.BIO_ctrl(out_, TlsLibrary::kBioCtrlPending, 0, nullptr) > 0) {
    int n = lib_.BIO_read(out_, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace cuprobe
