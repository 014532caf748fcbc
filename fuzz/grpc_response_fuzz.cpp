// What a kubelet (or anything on its socket) can put in the body of cuprobe's gRPC
// response: nghttp2 (fuzzed in OSS-Fuzz) reads the HTTP/2 around it; what is ours is
// the gRPC message framing and the protobuf reader. The bytes go through gRPC
// unframing, then the protobuf reader (every field walked, nested length-delimited
// values too), and the raw bytes through the reader as well.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.h"
#include "net/grpc_unary_call.h"
#include "net/protobuf_reader.h"

namespace {

void walk(std::string_view message, int depth) {
  cuprobe::ProtobufReader r(message);
  try {
    while (r.next()) {
      if (depth < 8 && r.wire_type() == cuprobe::ProtobufReader::kLengthDelimited) walk(r.bytes(), depth + 1);
    }
  } catch (const cuprobe::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuprobe;
  std::string_view body(reinterpret_cast<const char*>(data), size);
  try {
    std::string message = grpc_unframe(body, 1 << 20);
    if (grpc_unframe(grpc_frame(message), 1 << 20) != message) __builtin_trap();  // framing round-trips
    walk(message, 0);
  } catch (const Error&) {
  }
  walk(body, 0);
  return 0;
}
