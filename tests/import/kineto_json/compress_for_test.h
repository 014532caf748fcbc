// gzip and xz in memory, for tests that write compressed traces.
#pragma once

#include <lzma.h>
#include <zlib.h>

#include <cstdint>
#include <string>

namespace cuprobe::test {

inline std::string gzip(const std::string& data) {
  z_stream zs{};
  deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, data.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

inline std::string xz(const std::string& data) {
  std::string out(lzma_stream_buffer_bound(data.size()), '\0');
  std::size_t written = 0;
  lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(data.data()), data.size(),
                          reinterpret_cast<std::uint8_t*>(out.data()), &written, out.size());
  out.resize(written);
  return out;
}

}  // namespace cuprobe::test
