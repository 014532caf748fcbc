// The text of an HTTP/1.1 request as cuprobe's clients send it (Host,
// User-Agent, Accept, Connection: close for one-off exchanges, the run's extra
// headers, a JSON body with its length), the check of a user's 'Name: value'
// header, and the hop-by-hop rewrite a connection applies (proxy form,
// Connection: close).
#pragma once

#include <string>
#include <string_view>

namespace cuprobe {

// "Name: value" → "Name: value\r\n"; throws cuprobe::Error (exit code 2) for a
// malformed header, a name that is not an HTTP token, a header cuprobe sets
// itself (Host, Content-Length, Transfer-Encoding, Connection), or a value with
// CR, LF or another control byte. The message names the header, never its
// value (a key).
std::string header_line(const std::string& header);

// The whole request; a GET without a body has no Content-Type/Content-Length.
// `extra_headers` are "Name: value\r\n" lines (see header_line()).
// `connection_close`: "Connection: close" (a one-off exchange); without it the
// connection's owner decides (the load loop keeps connections alive).
std::string format_http_request(const char* method, const std::string& path, const std::string& authority,
                                const char* accept, const std::string& json_body, const std::string& extra_headers = "",
                                bool connection_close = true);

// `request` as sent on one connection: with `absolute_base` ("http://host:port")
// its target in absolute form (a request through a plain-http proxy), and
// `hop_headers` ("Name: value\r\n" lines: Proxy-Authorization, Connection)
// right after the request line. Unchanged when both are empty.
std::string for_next_hop(std::string request, std::string_view absolute_base, std::string_view hop_headers);

// A small request (GET/POST) accepting anything, for readiness and profiler calls.
std::string build_simple_request(const char* method, const std::string& path, const std::string& authority,
                                 const std::string& json_body = "", const std::string& extra_headers = "");

}  // namespace cuprobe
