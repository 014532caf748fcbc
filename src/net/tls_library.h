// OpenSSL, opened with dlopen at run time: cuprobe needs no OpenSSL headers to
// build and runs where libssl is absent (https is then a one-line error). Only
// the few functions cuprobe calls are declared here, with the ABI of OpenSSL
// 1.1 and 3 (both export every one of them under these names).
#pragma once

#include <cstddef>
#include <string>

namespace cuprobe {

struct ssl_ctx_st;
struct ssl_st;
struct ssl_method_st;
struct bio_st;
struct bio_method_st;
struct X509_VERIFY_PARAM_st;

struct TlsLibrary {
  using SSL_CTX = ssl_ctx_st;
  using SSL = ssl_st;
  using SSL_METHOD = ssl_method_st;
  using BIO = bio_st;
  using BIO_METHOD = bio_method_st;
  using X509_VERIFY_PARAM = X509_VERIFY_PARAM_st;

  // Constants of the OpenSSL ABI (ssl.h, bio.h, tls1.h, x509_vfy.h).
  static constexpr int kVerifyNone = 0, kVerifyPeer = 1;
  static constexpr int kErrorSsl = 1, kErrorWantRead = 2, kErrorWantWrite = 3, kErrorSyscall = 5, kErrorZeroReturn = 6;
  static constexpr int kCtrlSetTlsextHostname = 55, kTlsextNametypeHostName = 0;
  static constexpr int kCtrlSetMinProtoVersion = 123, kTls12Version = 0x0303;
  static constexpr int kFiletypePem = 1;
  static constexpr int kBioCtrlPending = 10;
  static constexpr long kX509VOk = 0;

  const SSL_METHOD* (*TLS_client_method)();
  const SSL_METHOD* (*TLS_server_method)();
  SSL_CTX* (*SSL_CTX_new)(const SSL_METHOD*);
  void (*SSL_CTX_free)(SSL_CTX*);
  void (*SSL_CTX_set_verify)(SSL_CTX*, int, void*);
  int (*SSL_CTX_set_default_verify_paths)(SSL_CTX*);
  int (*SSL_CTX_load_verify_locations)(SSL_CTX*, const char*, const char*);
  long (*SSL_CTX_ctrl)(SSL_CTX*, int, long, void*);
  int (*SSL_CTX_use_certificate_chain_file)(SSL_CTX*, const char*);
  int (*SSL_CTX_use_PrivateKey_file)(SSL_CTX*, const char*, int);
  SSL* (*SSL_new)(SSL_CTX*);
  void (*SSL_free)(SSL*);
  void (*SSL_set_bio)(SSL*, BIO*, BIO*);
  void (*SSL_set_connect_state)(SSL*);
  void (*SSL_set_accept_state)(SSL*);
  int (*SSL_do_handshake)(SSL*);
  int (*SSL_read)(SSL*, void*, int);
  int (*SSL_write)(SSL*, const void*, int);
  int (*SSL_get_error)(const SSL*, int);
  long (*SSL_ctrl)(SSL*, int, long, void*);
  int (*SSL_set1_host)(SSL*, const char*);
  X509_VERIFY_PARAM* (*SSL_get0_param)(SSL*);
  long (*SSL_get_verify_result)(const SSL*);
  int (*X509_VERIFY_PARAM_set1_ip_asc)(X509_VERIFY_PARAM*, const char*);
  const char* (*X509_verify_cert_error_string)(long);
  BIO* (*BIO_new)(const BIO_METHOD*);
  const BIO_METHOD* (*BIO_s_mem)();
  int (*BIO_read)(BIO*, void*, int);
  int (*BIO_write)(BIO*, const void*, int);
  long (*BIO_ctrl)(BIO*, int, long, void*);
  int (*BIO_free)(BIO*);
  unsigned long (*ERR_get_error)();
  void (*ERR_error_string_n)(unsigned long, char*, std::size_t);
  void (*ERR_clear_error)();

  // The oldest queued OpenSSL error as text ("" when none); clears the queue.
  std::string last_error() const;
};

// Loads libssl once (CUPROBE_LIBSSL names the file to use; otherwise
// libssl.so.3, then libssl.so.1.1). nullptr when it cannot be loaded, with
// the reason in `why`.
const TlsLibrary* tls_library(std::string& why);

}  // namespace cuprobe
