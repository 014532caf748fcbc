// The flags that say how to reach a server, shared by `bench` and `wait`:
// -H/--header (repeatable, anywhere on the line; 'Name: value' or the peers'
// Name=value), --api-key (default: the
// OPENAI_API_KEY environment variable), and for https:// --cacert, --insecure.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

struct HttpClientFlags {
  std::vector<std::string> headers;
  std::string api_key;
  std::string ca_file;
  bool insecure = false;
};

void add_http_client_flags(CLI::App& app, HttpClientFlags& flags);

// Throws cuprobe::Error (exit code 2) for a malformed header, or (exit 1) when
// an https URL cannot get TLS (no libssl, unreadable --cacert). An explicit
// Authorization header wins over --api-key, which wins over OPENAI_API_KEY.
// The proxies come from the environment (net/proxy_settings.h): a proxy
// variable that cannot be used is exit code 2.
HttpClientConfig http_client_config(const HttpClientFlags& flags, const HttpUrl& server);

}  // namespace cuprobe
