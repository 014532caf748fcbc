#include "net/tls_library.h"

#include <cstdlib>

#include "common/shared_library.h"

namespace cuprobe {
namespace {

struct Loaded {
  TlsLibrary lib{};
  bool ok = false;
  std::string why;
};

OpenedLibrary open_libssl() {
  constexpr int kMode = RTLD_NOW | RTLD_LOCAL;
  if (const char* env = std::getenv("CUPROBE_LIBSSL"); env && *env) return open_library({env}, kMode);
  return open_library({"libssl.so.3", "libssl.so.1.1"}, kMode);
}

Loaded load() {
  Loaded l;
  OpenedLibrary ssl = open_libssl();
  if (!ssl) {
    l.why =
        "https needs OpenSSL's libssl (libssl.so.3 or libssl.so.1.1, e.g. Debian's libssl3), which could not be "
        "loaded: " +
        ssl.error;
    return l;
  }
  TlsLibrary& t = l.lib;
  // dlsym on libssl's handle also finds libcrypto's symbols (its dependency).
#define CUPROBE_SYMBOL(name) required_symbol(#name, t.name)
  std::string missing = resolve_symbols(ssl, {CUPROBE_SYMBOL(TLS_client_method),
                                              CUPROBE_SYMBOL(TLS_server_method),
                                              CUPROBE_SYMBOL(SSL_CTX_new),
                                              CUPROBE_SYMBOL(SSL_CTX_free),
                                              CUPROBE_SYMBOL(SSL_CTX_set_verify),
                                              CUPROBE_SYMBOL(SSL_CTX_set_default_verify_paths),
                                              CUPROBE_SYMBOL(SSL_CTX_load_verify_locations),
                                              CUPROBE_SYMBOL(SSL_CTX_ctrl),
                                              CUPROBE_SYMBOL(SSL_CTX_use_certificate_chain_file),
                                              CUPROBE_SYMBOL(SSL_CTX_use_PrivateKey_file),
                                              CUPROBE_SYMBOL(SSL_new),
                                              CUPROBE_SYMBOL(SSL_free),
                                              CUPROBE_SYMBOL(SSL_set_bio),
                                              CUPROBE_SYMBOL(SSL_set_connect_state),
                                              CUPROBE_SYMBOL(SSL_set_accept_state),
                                              CUPROBE_SYMBOL(SSL_do_handshake),
                                              CUPROBE_SYMBOL(SSL_read),
                                              CUPROBE_SYMBOL(SSL_write),
                                              CUPROBE_SYMBOL(SSL_get_error),
                                              CUPROBE_SYMBOL(SSL_ctrl),
                                              CUPROBE_SYMBOL(SSL_set1_host),
                                              CUPROBE_SYMBOL(SSL_get0_param),
                                              CUPROBE_SYMBOL(SSL_get_verify_result),
                                              CUPROBE_SYMBOL(X509_VERIFY_PARAM_set1_ip_asc),
                                              CUPROBE_SYMBOL(X509_verify_cert_error_string),
                                              CUPROBE_SYMBOL(BIO_new),
                                              CUPROBE_SYMBOL(BIO_s_mem),
                                              CUPROBE_SYMBOL(BIO_read),
                                              CUPROBE_SYMBOL(BIO_write),
                                              CUPROBE_SYMBOL(BIO_ctrl),
                                              CUPROBE_SYMBOL(BIO_free),
                                              CUPROBE_SYMBOL(ERR_get_error),
                                              CUPROBE_SYMBOL(ERR_error_string_n),
                                              CUPROBE_SYMBOL(ERR_clear_error)});
#undef CUPROBE_SYMBOL
  if (!missing.empty()) {
    l.why = "https: " + missing + " (OpenSSL 1.1 or 3 is needed)";
    return l;
  }
  l.ok = true;
  return l;
}

}  // namespace

std::string TlsLibrary::last_error() const {
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

const TlsLibrary* tls_library(std::string& why) {
  static const Loaded loaded = load();
  if (!loaded.ok) {
    why = loaded.why;
    return nullptr;
  }
  return &loaded.lib;
}

}  // namespace cuprobe
