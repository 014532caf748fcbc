#include "import/byte_source.h"

#include <fcntl.h>
#include <lzma.h>
#include <unistd.h>
#include <zlib.h>

#ifdef CUPROBE_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/usable_cpus.h"

namespace cuprobe {
namespace {

class FileReader {
 public:
  explicit FileReader(const std::string& path, std::uint64_t offset = 0) : path_(path), offset_(offset) {
    // O_NONBLOCK: opening a FIFO nobody writes to returns at once (its first read
    // then says end of file) instead of waiting forever; reads block as usual.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    if (offset > 0 && ::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) {
      ::close(fd_);
      throw InputError(path, std::string("cannot seek: ") + std::strerror(errno));
    }
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  }
  ~FileReader() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  std::size_t read(char* dst, std::size_t n) {
    for (;;) {
      ssize_t got = ::read(fd_, dst, n);
      if (got >= 0) {
        offset_ += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno != EINTR)
        throw InputError(path_, static_cast<long long>(offset_), std::string("read failed: ") + std::strerror(errno));
    }
  }
  std::uint64_t offset() const { return offset_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t offset_ = 0;
};

// A file's bytes as stored.
class FileSource final : public ByteSource {
 public:
  explicit FileSource(std::unique_ptr<FileReader> file) : file_(std::move(file)) {}
  std::size_t read(char* dst, std::size_t n) override { return file_->read(dst, n); }
  const char* encoding() const override { return "plain"; }

 private:
  std::unique_ptr<FileReader> file_;
};

// Shared input buffering for the two decompressors: the compressed bytes
// already read (the sniffed head first), refilled from the file.
class CompressedInput {
 public:
  CompressedInput(std::unique_ptr<FileReader> file, std::vector<char> head)
      : file_(std::move(file)), buf_(std::move(head)), len_(buf_.size()) {
    buf_.resize(std::max<std::size_t>(buf_.size(), 1 << 20));
  }
  // Returns false at the end of the file.
  bool refill() {
    len_ = file_->read(buf_.data(), buf_.size());
    consumed_before_ = file_->offset() - len_;
    return len_ > 0;
  }
  const unsigned char* data() const { return reinterpret_cast<const unsigned char*>(buf_.data()); }
  std::size_t size() const { return len_; }
  std::uint64_t offset_of(std::size_t remaining) const { return consumed_before_ + (len_ - remaining); }
  const std::string& path() const { return file_->path(); }

 private:
  std::unique_ptr<FileReader> file_;
  std::vector<char> buf_;
  std::size_t len_;
  std::uint64_t consumed_before_ = 0;
};

#ifdef CUPROBE_HAVE_ISAL
// ISA-L's igzip: streaming, and 3x zlib's speed here (bench/inflate_speed_bench.cpp).
class GzipSource final : public ByteSource {
 public:
  GzipSource(std::unique_ptr<FileReader> file, std::vector<char> head) : in_(std::move(file), std::move(head)) {
    start_member(const_cast<unsigned char*>(in_.data()), static_cast<std::uint32_t>(in_.size()));
  }

  std::size_t read(char* dst, std::size_t n) override {
    if (done_) return 0;
    st_.next_out = reinterpret_cast<std::uint8_t*>(dst);
    st_.avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(n, 1u << 30));
    while (st_.avail_out > 0) {
      if (st_.avail_in == 0 && st_.block_state != ISAL_BLOCK_FINISH) {
        if (!in_.refill()) {
          if (!in_member_) {
            done_ = true;
            break;
          }
          throw InputError(in_.path(), static_cast<long long>(in_.offset_of(0)),
                           "truncated gzip stream (the file ends inside compressed data)");
        }
        st_.next_in = const_cast<unsigned char*>(in_.data());
        st_.avail_in = static_cast<std::uint32_t>(in_.size());
      }
      in_member_ = true;
      int rc = isal_inflate(&st_);
      if (rc != ISAL_DECOMP_OK) {
        throw InputError(in_.path(), static_cast<long long>(in_.offset_of(st_.avail_in)),
                         "corrupt gzip data: " + describe(rc));
      }
      if (st_.block_state == ISAL_BLOCK_FINISH) {
        in_member_ = false;
        if (st_.avail_in == 0 && !in_.refill()) {
          done_ = true;
          break;
        }
        if (st_.avail_in == 0) {
          start_member(const_cast<unsigned char*>(in_.data()), static_cast<std::uint32_t>(in_.size()));
        } else {
          start_member(st_.next_in, st_.avail_in);  // another gzip member follows
        }
      }
    }
    return n - st_.avail_out;
  }
  const char* encoding() const override { return "gzip"; }

 private:
  void start_member(unsigned char* next, std::uint32_t avail) {
    isal_inflate_init(&st_);
    st_.crc_flag = ISAL_GZIP;
    st_.next_in = next;
    st_.avail_in = avail;
  }
  static std::string describe(int rc) {
    switch (rc) {
      case ISAL_INVALID_BLOCK:
        return "invalid deflate block";
      case ISAL_INVALID_SYMBOL:
        return "invalid code";
      case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
      case ISAL_INVALID_WRAPPER:
      case ISAL_UNSUPPORTED_METHOD:
        return "incorrect header check";
      case ISAL_INCORRECT_CHECKSUM:
        return "incorrect data check";
      default:
        return "inflate failed (isa-l error " + std::to_string(rc) + ")";
    }
  }

  CompressedInput in_;
  inflate_state st_;
  bool in_member_ = false;
  bool done_ = false;
};
#else
class GzipSource final : public ByteSource {
 public:
  GzipSource(std::unique_ptr<FileReader> file, std::vector<char> head) : in_(std::move(file), std::move(head)) {
    std::memset(&zs_, 0, sizeof zs_);
    if (inflateInit2(&zs_, 15 + 32) != Z_OK) throw InputError(in_.path(), "zlib initialisation failed");
    zs_.next_in = const_cast<unsigned char*>(in_.data());
    zs_.avail_in = static_cast<uInt>(in_.size());
  }
  ~GzipSource() override { inflateEnd(&zs_); }

  std::size_t read(char* dst, std::size_t n) override {
    if (done_) return 0;
    zs_.next_out = reinterpret_cast<unsigned char*>(dst);
    zs_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    while (zs_.avail_out > 0) {
      if (zs_.avail_in == 0) {
        if (!in_.refill()) {
          if (!in_member_) {
            done_ = true;
            break;
          }
          throw InputError(in_.path(), static_cast<long long>(in_.offset_of(0)),
                           "truncated gzip stream (the file ends inside compressed data)");
        }
        zs_.next_in = const_cast<unsigned char*>(in_.data());
        zs_.avail_in = static_cast<uInt>(in_.size());
      }
      in_member_ = true;
      int rc = inflate(&zs_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        inflateReset(&zs_);  // another gzip member may follow
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw InputError(in_.path(), static_cast<long long>(in_.offset_of(zs_.avail_in)),
                         std::string("corrupt gzip data: ") + (zs_.msg ? zs_.msg : "inflate failed"));
      }
    }
    return n - zs_.avail_out;
  }
  const char* encoding() const override { return "gzip"; }

 private:
  CompressedInput in_;
  z_stream zs_;
  bool in_member_ = false;
  bool done_ = false;
};
#endif

class XzSource final : public ByteSource {
 public:
  XzSource(std::unique_ptr<FileReader> file, std::vector<char> head) : in_(std::move(file), std::move(head)) {
    // The threaded decoder decodes the blocks of a file xz cut into blocks (xz -T0 does) in parallel;
    // a file of one block is decoded on the calling thread as before.
    lzma_mt mt{};
    mt.flags = LZMA_CONCATENATED;
    mt.threads = usable_cpus();
    // Each thread holds a whole block (xz -T0 cuts ~24 MiB ones): past this, one thread as before.
    mt.memlimit_threading = std::uint64_t{64} << 20;
    mt.memlimit_stop = UINT64_MAX;
    if (lzma_stream_decoder_mt(&ls_, &mt) != LZMA_OK) {
      throw InputError(in_.path(), "xz decoder initialisation failed");
    }
    ls_.next_in = in_.data();
    ls_.avail_in = in_.size();
  }
  ~XzSource() override { lzma_end(&ls_); }

  std::size_t read(char* dst, std::size_t n) override {
    if (done_) return 0;
    ls_.next_out = reinterpret_cast<std::uint8_t*>(dst);
    ls_.avail_out = n;
    while (ls_.avail_out > 0) {
      lzma_action action = LZMA_RUN;
      if (ls_.avail_in == 0) {
        if (in_.refill()) {
          ls_.next_in = in_.data();
          ls_.avail_in = in_.size();
        } else {
          action = LZMA_FINISH;
        }
      }
      lzma_ret rc = lzma_code(&ls_, action);
      if (rc == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (rc == LZMA_BUF_ERROR && action == LZMA_FINISH) {
        throw InputError(in_.path(), static_cast<long long>(in_.offset_of(0)),
                         "truncated xz stream (the file ends inside compressed data)");
      }
      if (rc != LZMA_OK) {
        throw InputError(in_.path(), static_cast<long long>(in_.offset_of(ls_.avail_in)),
                         "corrupt xz data (lzma error " + std::to_string(static_cast<int>(rc)) + ")");
      }
    }
    return n - ls_.avail_out;
  }
  const char* encoding() const override { return "xz"; }

 private:
  CompressedInput in_;
  lzma_stream ls_ = LZMA_STREAM_INIT;
  bool done_ = false;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(std::string data, std::size_t max_read) : data_(std::move(data)), max_read_(max_read) {}
  std::size_t read(char* dst, std::size_t n) override {
    std::size_t k = std::min({n, max_read_, data_.size() - pos_});
    std::memcpy(dst, data_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  const char* encoding() const override { return "plain"; }

 private:
  std::string data_;
  std::size_t max_read_;
  std::size_t pos_ = 0;
};

class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::string head, std::unique_ptr<ByteSource> rest) : head_(std::move(head)), rest_(std::move(rest)) {}
  std::size_t read(char* dst, std::size_t n) override {
    if (pos_ < head_.size()) {
      std::size_t k = std::min(n, head_.size() - pos_);
      std::memcpy(dst, head_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return rest_->read(dst, n);
  }
  const char* encoding() const override { return rest_->encoding(); }

 private:
  std::string head_;
  std::unique_ptr<ByteSource> rest_;
  std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> prepend_bytes(std::string head, std::unique_ptr<ByteSource> rest) {
  return std::make_unique<PrefixedSource>(std::move(head), std::move(rest));
}

std::string read_up_to(ByteSource& source, std::size_t n) {
  std::string out;
  char buffer[1 << 16];
  while (out.size() < n) {
    std::size_t k = source.read(buffer, std::min(sizeof buffer, n - out.size()));
    if (k == 0) break;
    out.append(buffer, k);
  }
  return out;
}

std::unique_ptr<ByteSource> open_plain_file_from(const std::string& path, std::uint64_t offset) {
  return std::make_unique<FileSource>(std::make_unique<FileReader>(path, offset));
}

void copy_to_file(ByteSource& source, const std::string& path, const std::string& shown_as) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw InputError(shown_as, "cannot copy it to " + path + ": " + std::strerror(errno));
  std::vector<char> buf(1 << 20);
  std::uint64_t copied = 0;
  try {
    while (std::size_t n = source.read(buf.data(), buf.size())) {
      for (std::size_t done = 0; done < n;) {
        ssize_t k = ::write(fd, buf.data() + done, n - done);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
          throw InputError(shown_as, "cannot copy it to " + path + " after " + std::to_string(copied + done) +
                                         " bytes: " + std::strerror(errno) + " (set TMPDIR to a roomier directory)");
        }
        done += static_cast<std::size_t>(k);
      }
      copied += n;
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

std::unique_ptr<ByteSource> memory_byte_source(std::string data, std::size_t max_read) {
  return std::make_unique<MemorySource>(std::move(data), max_read);
}

std::unique_ptr<ByteSource> open_byte_source(const std::string& path, std::string* raw_head) {
  auto file = std::make_unique<FileReader>(path);
  std::vector<char> head(16);
  std::size_t got = 0;
  while (got < head.size()) {
    std::size_t k = file->read(head.data() + got, head.size() - got);
    if (k == 0) break;
    got += k;
  }
  head.resize(got);
  if (raw_head) raw_head->assign(head.begin(), head.end());
  auto starts_with = [&](std::initializer_list<unsigned char> magic) {
    if (head.size() < magic.size()) return false;
    std::size_t i = 0;
    for (unsigned char c : magic) {
      if (static_cast<unsigned char>(head[i++]) != c) return false;
    }
    return true;
  };
  if (starts_with({0x1f, 0x8b})) return std::make_unique<GzipSource>(std::move(file), std::move(head));
  if (starts_with({0xfd, '7', 'z', 'X', 'Z', 0x00}))
    return std::make_unique<XzSource>(std::move(file), std::move(head));
  return prepend_bytes(std::string(head.begin(), head.end()), std::make_unique<FileSource>(std::move(file)));
}

}  // namespace cuprobe
