// What a kubelet (or anything on its socket) can send cuprobe's gRPC client:
// byte 0 picks a piece size; the rest is the server's side of one HTTP/2
// connection, fed to H2ClientStream whole and in pieces (the outcome, the
// headers, the trailers and the body must agree). A finished body then goes
// through gRPC unframing, and the bytes through the protobuf reader (every field
// walked, nested length-delimited values too) and a lone HPACK decoder.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.h"
#include "net/grpc_unary_call.h"
#include "net/hpack_decoder.h"
#include "net/http2_client_stream.h"
#include "net/protobuf_reader.h"
#include "support/split_feed.h"

namespace {

struct Outcome {
  bool failed = false, done = false;
  std::vector<cuprobe::HeaderField> headers, trailers;
  std::string body;
};

Outcome exchange(std::string_view peer, std::size_t piece) {
  Outcome o;
  cuprobe::H2ClientStream h2;
  h2.start({{":method", "POST"}, {":path", "/v1.PodResourcesLister/List"}}, "");
  try {
    for (std::size_t at = 0; at < peer.size() && !h2.done(); at += piece) h2.receive(peer.substr(at, piece));
  } catch (const cuprobe::Error&) {
    o.failed = true;
  }
  o.done = h2.done();
  o.headers = h2.headers();
  o.trailers = h2.trailers();
  o.body = h2.body();
  return o;
}

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
  if (size < 1) return 0;
  std::size_t piece = data[0] % 64 + 1;
  std::string_view peer(reinterpret_cast<const char*>(data) + 1, size - 1);
  Outcome whole = exchange(peer, peer.size() + 1);
  Outcome split = exchange(peer, piece);
  if (split.failed != whole.failed) fuzz::split_mismatch("the outcome");
  if (!whole.failed) {
    if (split.done != whole.done) fuzz::split_mismatch("done()");
    if (split.headers != whole.headers || split.trailers != whole.trailers) fuzz::split_mismatch("the headers");
    if (split.body != whole.body) fuzz::split_mismatch("the body");
  }
  if (whole.done) {
    try {
      walk(grpc_unframe(whole.body, 1 << 20), 0);
    } catch (const Error&) {
    }
  }
  walk(peer, 0);
  try {
    HpackDecoder(4096, 4096).decode(peer);
  } catch (const Error&) {
  }
  return 0;
}
