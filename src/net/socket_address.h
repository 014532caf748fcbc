// host:port → every address getaddrinfo gives (IPv4 and IPv6, in its order of
// preference), for the load loop and for one-off requests: a connection tries
// them in turn (an IPv6-first "localhost" still reaches a server on 127.0.0.1).
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cuprobe {

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family() const { return storage.ss_family; }
  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
};

// Empty when the host cannot be resolved; error says why.
std::vector<SocketAddress> resolve_addresses(const std::string& host, std::uint16_t port, std::string& error);

}  // namespace cuprobe
