#include "support/compress.h"

#include <lzma.h>
#include <zlib.h>

#include <stdexcept>

namespace cuprobe::fuzz {

std::string gzip(std::string_view data) {
  z_stream zs{};
  // 15 + 16: a gzip header, not a zlib one. Level 1: speed matters here, not size.
  if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

std::string xz(std::string_view data) {
  std::string out(lzma_stream_buffer_bound(data.size()), '\0');
  std::size_t used = 0;
  if (lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(data.data()),
                              data.size(), reinterpret_cast<std::uint8_t*>(out.data()), &used, out.size()) != LZMA_OK) {
    throw std::runtime_error("lzma_easy_buffer_encode failed");
  }
  out.resize(used);
  return out;
}

std::string wrap(Wrapping w, std::string_view data) {
  switch (w) {
    case Wrapping::kGzip:
      return gzip(data);
    case Wrapping::kXz:
      return xz(data);
    case Wrapping::kPlain:
      break;
  }
  return std::string(data);
}

WrapChoice wrap_choice(std::uint8_t selector) {
  WrapChoice c;
  switch (selector & 3) {
    case 2:
      c.wrapping = Wrapping::kGzip;
      break;
    case 3:
      c.wrapping = Wrapping::kXz;
      break;
    default:
      break;
  }
  if (selector & 0x80) c.cut = ((selector >> 2) & 31) + 1;
  return c;
}

std::string wrap(const WrapChoice& choice, std::string_view data) {
  std::string out = wrap(choice.wrapping, data);
  out.resize(out.size() - std::min(out.size(), choice.cut));
  return out;
}

}  // namespace cuprobe::fuzz
