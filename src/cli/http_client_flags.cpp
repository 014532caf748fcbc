#include "cli/http_client_flags.h"

#include <strings.h>

#include <cstdlib>

#include "common/error.h"
#include "common/secrets.h"
#include "net/http_request.h"

namespace cuprobe {

namespace {

// vLLM's and SGLang's --header KEY=VALUE as 'KEY: VALUE' (a ':' before any '=' is cuprobe's form).
std::string colon_form(const std::string& h) {
  std::size_t colon = h.find(':'), eq = h.find('=');
  if (eq == std::string::npos || colon < eq) return h;
  std::string name = h.substr(0, eq), value = h.substr(eq + 1);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  std::size_t start = value.find_first_not_of(' ');
  return name + ": " + (start == std::string::npos ? "" : value.substr(start));
}

}  // namespace

void add_http_client_flags(CLI::App& app, HttpClientFlags& flags) {
  // One value per -H: a vector option would otherwise swallow the URL after it.
  app.add_option("-H,--header", flags.headers,
                 "extra header 'Name: value' (or the peers' Name=value) sent with every request (readiness, models, "
                 "profiler, load); repeatable")
      ->allow_extra_args(false);
  app.add_option("--api-key", flags.api_key,
                 "sends 'Authorization: Bearer KEY' with every request (default: $OPENAI_API_KEY)");
  app.add_option("--cacert", flags.ca_file,
                 "https: trust the CA certificates in this PEM file (default: the system's)");
  app.add_flag("--insecure", flags.insecure, "https: do not verify the server's certificate or host name");
}

HttpClientConfig http_client_config(const HttpClientFlags& flags, const HttpUrl& server) {
  HttpClientConfig config;
  if ((!flags.ca_file.empty() || flags.insecure) && !server.https) {
    throw Error("--cacert and --insecure are for https:// URLs", kExitUsage);
  }
  if (!flags.ca_file.empty() && flags.insecure) throw Error("--cacert and --insecure exclude each other", kExitUsage);
  if (server.https) config.tls = TlsContext::client(TlsOptions{flags.ca_file, flags.insecure});
  config.proxies = proxy_settings_from_environment();
  for (const auto& proxy : {config.proxies.http, config.proxies.https}) {
    if (proxy) add_secret(proxy->authorization);
  }
  bool has_authorization = false;
  for (const auto& given : flags.headers) {
    const std::string h = colon_form(given);
    // Registered before the header is checked: no message or file shows a credential's value.
    if (std::size_t colon = h.find(':'); colon != std::string::npos && is_secret_header(h.substr(0, colon))) {
      add_secret(h.substr(colon + 1));
    }
    config.extra_headers += header_line(h);
    has_authorization = has_authorization || strncasecmp(h.c_str(), "authorization:", 14) == 0;
  }
  std::string key = flags.api_key;
  if (key.empty()) {
    const char* env = std::getenv("OPENAI_API_KEY");
    if (env) key = env;
  }
  add_secret(key);
  if (!has_authorization && !key.empty()) config.extra_headers += header_line("Authorization: Bearer " + key);
  return config;
}

}  // namespace cuprobe
