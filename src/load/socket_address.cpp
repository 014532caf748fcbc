#include "load/socket_address.h"

#include <netdb.h>

#include <cstring>

namespace cuprobe {

bool resolve_address(const std::string& host, std::uint16_t port, SocketAddress& out, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
  if (rc != 0 || !res || res->ai_addrlen > sizeof out.storage) {
    error = "cannot resolve host '" + host + "': " + (rc != 0 ? gai_strerror(rc) : "no address");
    if (res) freeaddrinfo(res);
    return false;
  }
  std::memcpy(&out.storage, res->ai_addr, res->ai_addrlen);
  out.length = res->ai_addrlen;
  freeaddrinfo(res);
  return true;
}

}  // namespace cuprobe
