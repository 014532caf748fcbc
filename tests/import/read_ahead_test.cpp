// read_ahead (decompression on its own thread) and the gzip and xz readers
// behind it: every byte in order, several members, errors at the right point.
#include "import/read_ahead.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/error.h"
#include "import/byte_source.h"
#include "import/kineto_json/compress_for_test.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

// Text that compresses, but not to nothing: a counter and a hash per line.
std::string sample_text(std::size_t bytes) {
  std::string out;
  std::uint64_t h = 1469598103934665603ull;
  for (std::uint64_t i = 0; out.size() < bytes; ++i) {
    h = (h ^ i) * 1099511628211ull;
    out += "{\"ts\": " + std::to_string(i) + ", \"h\": " + std::to_string(h % 100000) + "},\n";
  }
  out.resize(bytes);
  return out;
}

std::string write_file(const std::string& name, const std::string& bytes) {
  std::string path = test::temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string read_all(ByteSource& source, std::size_t step) {
  std::string out, buf(step, '\0');
  while (std::size_t k = source.read(buf.data(), buf.size())) out.append(buf, 0, k);
  return out;
}

TEST(ReadAhead, PlainSourcesAreNotWrapped) {
  auto inner = memory_byte_source("abc");
  ByteSource* raw = inner.get();
  EXPECT_EQ(read_ahead(std::move(inner)).get(), raw);
}

TEST(ReadAhead, HandsOverEveryByteInOrderAcrossBlocksAndMembers) {
  std::string a = sample_text(3 << 20), b = sample_text(70001);
  std::string path = write_file("two.gz", test::gzip(a) + test::gzip(b));
  // Blocks smaller than the reader's reads and the other way round.
  for (std::size_t block : {std::size_t{4096}, std::size_t{1} << 20}) {
    for (std::size_t step : {std::size_t{1000}, std::size_t{3} << 20}) {
      auto source = read_ahead(open_byte_source(path), block, 2);
      EXPECT_STREQ(source->encoding(), "gzip");
      EXPECT_EQ(read_all(*source, step), a + b) << "block " << block << " step " << step;
    }
  }
  std::string xz_path = write_file("one.xz", test::xz(a));
  auto source = read_ahead(open_byte_source(xz_path), 65536, 3);
  EXPECT_EQ(read_all(*source, 100000), a);
}

// Yields `good` bytes, then throws: a decompressor meeting corrupt data.
class FailingSource final : public ByteSource {
 public:
  explicit FailingSource(std::size_t good) : good_(good) {}
  std::size_t read(char* dst, std::size_t n) override {
    if (given_ == good_) throw InputError("f.gz", 1234, "corrupt gzip data: test");
    std::size_t k = std::min(n, good_ - given_);
    std::fill(dst, dst + k, 'x');
    given_ += k;
    return k;
  }
  const char* encoding() const override { return "gzip"; }

 private:
  std::size_t good_, given_ = 0;
};

TEST(ReadAhead, AnErrorArrivesAfterTheBytesBeforeIt) {
  auto source = read_ahead(std::make_unique<FailingSource>(10000), 4096, 2);
  std::string buf(3000, '\0');
  std::size_t got = 0;
  try {
    while (std::size_t k = source->read(buf.data(), buf.size())) got += k;
    FAIL() << "the error was lost";
  } catch (const InputError& e) {
    EXPECT_EQ(got, 10000u);
    EXPECT_NE(std::string(e.what()).find("corrupt gzip data: test"), std::string::npos) << e.what();
  }
}

TEST(ReadAhead, AReaderThatStopsEarlyDoesNotWait) {
  std::string path = write_file("big.gz", test::gzip(sample_text(4 << 20)));
  auto source = read_ahead(open_byte_source(path), 4096, 2);
  char c;
  EXPECT_EQ(source->read(&c, 1), 1u);
  source.reset();  // the reading thread, blocked on a full queue, must end
}

TEST(GzipSource, ACorruptChecksumOrGarbageAfterAMemberIsAnError) {
  std::string gz = test::gzip(sample_text(100000));
  std::string bad_crc = gz;
  bad_crc[bad_crc.size() - 8] ^= 1;
  for (const auto& [name, bytes] : {std::pair<std::string, std::string>{"crc.gz", bad_crc},
                                    {"tail.gz", gz + "junk after the member, not another member"}}) {
    auto source = open_byte_source(write_file(name, bytes));
    try {
      read_all(*source, 65536);
      FAIL() << name << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("corrupt gzip data"), std::string::npos) << name << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace cuprobe
