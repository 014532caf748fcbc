// A real forward proxy for the tests: tinyproxy (the Debian package that
// scripts/setup.sh installs) on a free port with a generated configuration,
// in the foreground (-d, no root, no daemon), logging each request it relays
// ("Request (file descriptor N): POST http://... HTTP/1.1", "CONNECT host:port").
// Plus a guard that sets proxy variables for the test and restores them.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/background_process.h"

namespace cuprobe::test {

struct TinyproxyOptions {
  std::vector<int> connect_ports;  // CONNECT only to these (others: 403); empty = any port
  std::string user, password;      // BasicAuth: without them, 407
};

class Tinyproxy {
 public:
  // The binary's path, or nullopt (then `why` says what is missing).
  static std::optional<std::string> binary(std::string& why);
  // Starts it and waits until it accepts connections; throws std::runtime_error when it cannot.
  explicit Tinyproxy(const TinyproxyOptions& options = {});
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string log() const;  // what it logged so far

 private:
  int port_ = 0;
  std::string dir_;
  std::unique_ptr<BackgroundProcess> process_;
};

// Sets (or, with an empty value, unsets) environment variables until it goes out of scope.
class ScopedEnvironment {
 public:
  explicit ScopedEnvironment(const std::map<std::string, std::string>& values);
  ~ScopedEnvironment();
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

}  // namespace cuprobe::test
