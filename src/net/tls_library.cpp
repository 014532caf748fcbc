#include "net/tls_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace cuprobe {
namespace {

struct Loaded {
  TlsLibrary lib{};
  bool ok = false;
  std::string why;
};

template <typename F>
bool bind(void* handle, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  if (!fn && missing.empty()) missing = name;
  return fn != nullptr;
}

Loaded load() {
  Loaded l;
  std::vector<std::string> names;
  if (const char* env = std::getenv("CUPROBE_LIBSSL"); env && *env)
    names = {env};
  else
    names = {"libssl.so.3", "libssl.so.1.1"};
  void* handle = nullptr;
  std::string errors;
  for (const auto& n : names) {
    handle = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) break;
    const char* e = dlerror();
    errors += (errors.empty() ? "" : "; ") + std::string(e ? e : n);
  }
  if (!handle) {
    l.why =
        "https needs OpenSSL's libssl (libssl.so.3 or libssl.so.1.1, e.g. Debian's libssl3), which could not be "
        "loaded: " +
        errors;
    return l;
  }
  TlsLibrary& t = l.lib;
  std::string missing;
  // dlsym on libssl's handle also finds libcrypto's symbols (its dependency).
#define CUPROBE_BIND(name) bind(handle, t.name, #name, missing)
  CUPROBE_BIND(TLS_client_method);
  CUPROBE_BIND(TLS_server_method);
  CUPROBE_BIND(SSL_CTX_new);
  CUPROBE_BIND(SSL_CTX_free);
  CUPROBE_BIND(SSL_CTX_set_verify);
  CUPROBE_BIND(SSL_CTX_set_default_verify_paths);
  CUPROBE_BIND(SSL_CTX_load_verify_locations);
  CUPROBE_BIND(SSL_CTX_ctrl);
  CUPROBE_BIND(SSL_CTX_use_certificate_chain_file);
  CUPROBE_BIND(SSL_CTX_use_PrivateKey_file);
  CUPROBE_BIND(SSL_new);
  CUPROBE_BIND(SSL_free);
  CUPROBE_BIND(SSL_set_bio);
  CUPROBE_BIND(SSL_set_connect_state);
  CUPROBE_BIND(SSL_set_accept_state);
  CUPROBE_BIND(SSL_do_handshake);
  CUPROBE_BIND(SSL_read);
  CUPROBE_BIND(SSL_write);
  CUPROBE_BIND(SSL_get_error);
  CUPROBE_BIND(SSL_ctrl);
  CUPROBE_BIND(SSL_set1_host);
  CUPROBE_BIND(SSL_get0_param);
  CUPROBE_BIND(SSL_get_verify_result);
  CUPROBE_BIND(X509_VERIFY_PARAM_set1_ip_asc);
  CUPROBE_BIND(X509_verify_cert_error_string);
  CUPROBE_BIND(BIO_new);
  CUPROBE_BIND(BIO_s_mem);
  CUPROBE_BIND(BIO_read);
  CUPROBE_BIND(BIO_write);
  CUPROBE_BIND(BIO_ctrl);
  CUPROBE_BIND(BIO_free);
  CUPROBE_BIND(ERR_get_error);
  CUPROBE_BIND(ERR_error_string_n);
  CUPROBE_BIND(ERR_clear_error);
#undef CUPROBE_BIND
  if (!missing.empty()) {
    l.why = "https: the loaded libssl lacks " + missing + " (OpenSSL 1.1 or 3 is needed)";
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
