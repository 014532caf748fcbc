// One gRPC unary call over a unix socket (HTTP/2 with prior knowledge, no TLS),
// as the kubelet's local APIs serve them: connect, send one message, read one
// message and the trailers, all within one deadline. A non-zero grpc-status, a
// broken or hostile peer, or silence past the deadline is one Error line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

struct GrpcCall {
  std::string socket_path;  // a unix socket
  std::string method;       // "/package.Service/Method"
  std::int64_t timeout_ms = 5000;
  std::size_t max_message = 16 * 1024 * 1024;
};

// The response message (protobuf bytes) for `request`; throws Error.
std::string grpc_unary_call(const GrpcCall& call, std::string_view request);

// The gRPC framing of one message: flag byte 0 (not compressed), big-endian length, bytes.
std::string grpc_frame(std::string_view message);
// The one message of a unary response body; throws Error on a compressed message, a
// truncated prefix or body, more than one message, or a message above `max_message`.
std::string grpc_unframe(std::string_view body, std::size_t max_message);
// "UNIMPLEMENTED" for 12, ...; "code N" for unknown codes.
std::string grpc_status_name(int code);

}  // namespace cuprobe
