// host:port → the first address getaddrinfo gives (IPv4 or IPv6), for the
// load loop and for one-off requests.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>

namespace cuprobe {

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family() const { return storage.ss_family; }
  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
};

// False when the host cannot be resolved; error says why.
bool resolve_address(const std::string& host, std::uint16_t port, SocketAddress& out, std::string& error);

}  // namespace cuprobe
