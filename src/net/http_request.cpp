#include "net/http_request.h"

#include <strings.h>

#include <string_view>

#include "common/error.h"

namespace cuprobe {

std::string format_http_request(const char* method, const std::string& path, const std::string& authority,
                                const char* accept, const std::string& json_body, const std::string& extra_headers,
                                bool connection_close) {
  std::string req;
  req.reserve(256 + json_body.size());
  req.append(method).append(" ").append(path.empty() ? "/" : path).append(" HTTP/1.1\r\nHost: ");
  req.append(authority).append("\r\nUser-Agent: cuprobe\r\nAccept: ").append(accept);
  req.append(connection_close ? "\r\nConnection: close\r\n" : "\r\n").append(extra_headers);
  if (json_body.empty() && std::string_view(method) == "GET") return req.append("\r\n");
  req.append("Content-Type: application/json\r\nContent-Length: ").append(std::to_string(json_body.size()));
  return req.append("\r\n\r\n").append(json_body);
}

// Issue 39: a header's value is never quoted in a message (it may be a key); its name is.
std::string header_line(const std::string& header) {
  std::size_t colon = header.find(':');
  if (colon == std::string::npos || colon == 0) {
    throw Error("invalid header (use 'Name: value'; its text is not shown: it may hold a secret)", kExitUsage);
  }
  std::string name = header.substr(0, colon);
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f || std::string_view("\"(),/:;<=>?@[\\]{}").find(c) != std::string_view::npos) {
      throw Error("invalid header name (use 'Name: value'; the header is not shown: it may hold a secret)", kExitUsage);
    }
  }
  for (const char* reserved : {"host", "content-length", "transfer-encoding", "connection"}) {
    if (strcasecmp(name.c_str(), reserved) == 0) {
      throw Error("header '" + name + "' is cuprobe's own (from the URL and the request): it cannot be given",
                  kExitUsage);
    }
  }
  for (std::size_t i = colon + 1; i < header.size(); ++i) {
    auto u = static_cast<unsigned char>(header[i]);
    if (u == '\r' || u == '\n') {
      throw Error("header '" + name +
                      "': its value holds a CR or LF (a key file with CRLF, a secret with a trailing newline?); "
                      "the value is not shown",
                  kExitUsage);
    }
    if ((u < 0x20 && u != '\t') || u == 0x7f) {
      throw Error("header '" + name + "': its value holds a control byte; the value is not shown", kExitUsage);
    }
  }
  return header + "\r\n";
}

std::string build_simple_request(const char* method, const std::string& path, const std::string& authority,
                                 const std::string& json_body, const std::string& extra_headers) {
  return format_http_request(method, path, authority, "*/*", json_body, extra_headers);
}

std::string for_next_hop(std::string request, std::string_view absolute_base, std::string_view hop_headers) {
  if (absolute_base.empty() && hop_headers.empty()) return request;
  std::size_t target = request.find(' ');
  std::size_t line_end = request.find("\r\n");
  if (target == std::string::npos || line_end == std::string::npos || target > line_end) return request;
  std::string out;
  out.reserve(request.size() + absolute_base.size() + hop_headers.size());
  out.append(request, 0, target + 1).append(absolute_base);
  out.append(request, target + 1, line_end + 2 - (target + 1)).append(hop_headers);
  out.append(request, line_end + 2);
  return out;
}

}  // namespace cuprobe
