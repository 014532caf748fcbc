// NO_PROXY as curl reads it: a list of hosts that are reached directly,
// separated by commas or white space. "*" alone matches every host; a name
// matches itself and its subdomains ("example.com" and ".example.com" both match
// example.com and api.example.com); an IP literal (IPv6 with or without
// brackets) matches that address, and with "/BITS" a range (CIDR). As Go and
// Python allow, an entry may end in ":PORT" to match that port only. Names are
// compared without case and without a trailing dot; names are never resolved.
#pragma once

#include <cstdint>
#include <string_view>

namespace cuprobe {

bool no_proxy_matches(std::string_view list, std::string_view host, std::uint16_t port);

}  // namespace cuprobe
