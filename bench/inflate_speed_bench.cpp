// Inflate speed of the libraries Debian has, side by side in one run, on one
// .gz file: zlib (streaming, what cuprobe used before), ISA-L's igzip
// (streaming) and libdeflate (whole buffer only: the file is read into memory
// first, which the others need not). Each is run `rounds` times, interleaved,
// and the median is printed. Usage: inflate_speed_bench FILE.gz [rounds]
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#if __has_include(<isa-l/igzip_lib.h>) && defined(CUPROBE_HAVE_ISAL)
#include <isa-l/igzip_lib.h>
#define BENCH_ISAL 1
#endif
#if __has_include(<libdeflate.h>) && defined(CUPROBE_HAVE_LIBDEFLATE)
#include <libdeflate.h>
#define BENCH_LIBDEFLATE 1
#endif

namespace {

constexpr std::size_t kChunk = 1 << 20;

// Streams the compressed bytes through a 1 MiB output buffer, as the importer does.
std::size_t zlib_inflate(const std::vector<unsigned char>& in) {
  z_stream zs{};
  inflateInit2(&zs, 15 + 32);
  std::vector<unsigned char> out(kChunk);
  std::size_t total = 0;
  zs.next_in = const_cast<unsigned char*>(in.data());
  zs.avail_in = static_cast<uInt>(in.size());
  for (;;) {
    zs.next_out = out.data();
    zs.avail_out = static_cast<uInt>(out.size());
    int rc = inflate(&zs, Z_NO_FLUSH);
    total += out.size() - zs.avail_out;
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      inflateReset(&zs);
    } else if (rc != Z_OK) {
      std::fprintf(stderr, "zlib: error %d\n", rc);
      std::exit(1);
    }
  }
  inflateEnd(&zs);
  return total;
}

#ifdef BENCH_ISAL
std::size_t isal_inflate_all(const std::vector<unsigned char>& in) {
  inflate_state st;
  isal_inflate_init(&st);
  st.crc_flag = ISAL_GZIP;
  st.next_in = const_cast<unsigned char*>(in.data());
  st.avail_in = static_cast<std::uint32_t>(in.size());
  std::vector<unsigned char> out(kChunk);
  std::size_t total = 0;
  for (;;) {
    st.next_out = out.data();
    st.avail_out = static_cast<std::uint32_t>(out.size());
    int rc = isal_inflate(&st);
    total += out.size() - st.avail_out;
    if (rc != ISAL_DECOMP_OK) {
      std::fprintf(stderr, "isa-l: error %d\n", rc);
      std::exit(1);
    }
    if (st.block_state == ISAL_BLOCK_FINISH) {
      if (st.avail_in == 0) break;
      unsigned char* next = st.next_in;
      std::uint32_t left = st.avail_in;
      isal_inflate_reset(&st);
      st.crc_flag = ISAL_GZIP;
      st.next_in = next;
      st.avail_in = left;
    }
  }
  return total;
}
#endif

#ifdef BENCH_LIBDEFLATE
// The whole output in one buffer (libdeflate has no streaming API): its size from the gzip trailer.
std::size_t libdeflate_inflate_all(const std::vector<unsigned char>& in) {
  std::size_t isize = in[in.size() - 4] | (in[in.size() - 3] << 8) | (in[in.size() - 2] << 16) |
                      (static_cast<std::size_t>(in[in.size() - 1]) << 24);
  std::vector<unsigned char> out(isize + 1);
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::size_t got = 0;
  if (libdeflate_gzip_decompress(d, in.data(), in.size(), out.data(), out.size(), &got) != LIBDEFLATE_SUCCESS) {
    std::fprintf(stderr, "libdeflate: failed (a file over 4 GiB or of several members?)\n");
    std::exit(1);
  }
  libdeflate_free_decompressor(d);
  return got;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: inflate_speed_bench FILE.gz [rounds]\n");
    return 2;
  }
  int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  std::ifstream f(argv[1], std::ios::binary);
  std::vector<unsigned char> in((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (in.size() < 18) {
    std::fprintf(stderr, "inflate_speed_bench: %s is not a gzip file\n", argv[1]);
    return 1;
  }
  struct Side {
    const char* name;
    std::function<std::size_t(const std::vector<unsigned char>&)> run;
    std::vector<double> seconds;
    std::size_t bytes = 0;
  };
  std::vector<Side> sides;
  sides.push_back({"zlib", zlib_inflate, {}});
#ifdef BENCH_ISAL
  sides.push_back({"isa-l", isal_inflate_all, {}});
#endif
#ifdef BENCH_LIBDEFLATE
  sides.push_back({"libdeflate", libdeflate_inflate_all, {}});
#endif
  for (int r = 0; r < rounds; ++r) {
    for (auto& s : sides) {
      auto t0 = std::chrono::steady_clock::now();
      s.bytes = s.run(in);
      s.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::printf("%-11s %10s %10s %10s %8s\n", "inflate", "median_s", "min_s", "max_s", "MB/s");
  for (auto& s : sides) {
    std::sort(s.seconds.begin(), s.seconds.end());
    double med = s.seconds[s.seconds.size() / 2];
    std::printf("%-11s %10.3f %10.3f %10.3f %8.0f\n", s.name, med, s.seconds.front(), s.seconds.back(),
                static_cast<double>(s.bytes) / med / 1e6);
  }
  return 0;
}
