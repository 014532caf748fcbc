#include "net/socket_address.h"

#include <netdb.h>

#include <cstring>

namespace cuprobe {

std::vector<SocketAddress> resolve_addresses(const std::string& host, std::uint16_t port, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
  std::vector<SocketAddress> out;
  for (addrinfo* a = rc == 0 ? res : nullptr; a; a = a->ai_next) {
    if (a->ai_addrlen > sizeof(sockaddr_storage)) continue;
    SocketAddress& s = out.emplace_back();
    std::memcpy(&s.storage, a->ai_addr, a->ai_addrlen);
    s.length = a->ai_addrlen;
  }
  if (res) freeaddrinfo(res);
  if (out.empty()) error = "cannot resolve host '" + host + "': " + (rc != 0 ? gai_strerror(rc) : "no address");
  return out;
}

}  // namespace cuprobe
