#include "common/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <streambuf>

#include "common/errno_text.h"
#include "common/error.h"
#include "common/stop_signals.h"

namespace cuprobe {
namespace {

std::string directory_of(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// DIR/NAME.XXXXXXXX.SUFFIX with 8 random hex digits (NAME shortened so the whole stays a valid file name).
std::string random_sibling(const std::string& path, const char* suffix) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::filesystem::path p(path);
  std::string name = p.filename().string().substr(0, 200);
  char tag[16];
  std::snprintf(tag, sizeof tag, "%08llx", static_cast<unsigned long long>(rng() & 0xffffffffu));
  return (p.parent_path() / (name + "." + tag + "." + suffix)).string();
}

// Makes the rename itself durable; a directory that cannot be synced (some file systems) changes nothing.
void sync_directory(const std::string& path) {
  int fd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

[[noreturn]] void fail(const std::string& path, const char* what, int err) {
  // A blocking open or write cut short by SIGINT/SIGTERM (a FIFO nobody reads): said as such.
  if (err == EINTR) {
    throw Error(stopped_text() + " while writing " + (path == "-" ? std::string("stdout") : path) +
                ": it was not written whole");
  }
  throw Error(std::string(what) + " " + (path == "-" ? std::string("stdout") : path) + ": " + errno_text(err));
}

// N of "PREFIX" + N (decimal digits only, at most INT_MAX); -1 otherwise.
int number_after(const std::string& path, std::string_view prefix) {
  if (!path.starts_with(prefix) || path.size() == prefix.size() || path.size() - prefix.size() > 10) return -1;
  long long n = 0;
  for (char c : std::string_view(path).substr(prefix.size())) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n <= INT_MAX ? static_cast<int>(n) : -1;
}

}  // namespace

int descriptor_named(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  int n = number_after(path, "/dev/fd/");
  return n >= 0 ? n : number_after(path, "/proc/self/fd/");
}

void refuse_output_over_inputs(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (output.empty() || output == "-" || ::stat(output.c_str(), &out) != 0) return;
  if (!S_ISREG(out.st_mode)) return;  // a device or a FIFO read and written is not a file destroyed
  for (const std::string& input : inputs) {
    struct stat in {};
    if (input.empty() || input == "-" || ::stat(input.c_str(), &in) != 0) continue;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
      throw Error(output + ": this output is the input " + input +
                      " (writing it would destroy what is read): give another output file",
                  kExitUsage);
    }
  }
}

// A stream buffer over the temporary file's descriptor that keeps the errno of the first failed write.
class AtomicFile::Buffer final : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd), data_(1 << 16), signals_(stop_signals_heard()) {
    setp(data_.data(), data_.data() + data_.size());
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    for (char* p = pbase(); p < pptr() && error_ == 0;) {
      ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR && stop_signals_heard() == signals_) continue;
      if (n < 0) error_ = errno;
      if (n > 0) p += n;
      // A signal during a write that moved some bytes returns their count, not EINTR: the next
      // write would block again (a pipe nobody reads).
      if (error_ == 0 && p < pptr() && stop_signals_heard() != signals_) error_ = EINTR;
    }
    setp(data_.data(), data_.data() + data_.size());
    return error_ == 0;
  }

  int fd_;
  std::vector<char> data_;
  int signals_;  // stop_signals_heard() when the file was opened
  int error_ = 0;
};

AtomicFile::AtomicFile(std::string path, const std::vector<std::string>& inputs) : path_(std::move(path)) {
  refuse_output_over_inputs(path_, inputs);
  if (int named = descriptor_named(path_); named >= 0) {  // the shell's descriptor: its offset and mode kept
    int flags = ::fcntl(named, F_GETFL);
    if (flags < 0) fail(path_, "cannot write", errno);
    if ((flags & O_ACCMODE) == O_RDONLY) fail(path_, "cannot write", EBADF);
    if (named == 1) {  // what was printed before comes first
      std::cout.flush();
      std::fflush(stdout);
    }
    int fd = ::fcntl(named, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) fail(path_, "cannot write", errno);
    open_in_place(fd);
    return;
  }
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    if (S_ISSOCK(st.st_mode))
      throw Error("cannot write " + path_ + ": it is a socket; give a file, a FIFO or '-' (stdout)");
    int fd = -1;  // never created, never truncated; a FIFO waits for its reader (SIGINT/SIGTERM end the wait)
    const int signals = stop_signals_heard();
    do {
      fd = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR && stop_signals_heard() == signals);
    if (fd < 0) fail(path_, "cannot write", errno);
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      open_in_place(fd);
      return;
    }
    ::close(fd);  // replaced by a regular file meanwhile: that one is renamed over, as any
  }
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temp_ = random_sibling(path_, "partial");
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt == 100)) {
      int err = errno;
      temp_.clear();
      fail(path_, "cannot write", err);
    }
  }
  remember_partial_file(temp_);  // removed by the default stop (stop_signals.h) if a signal ends the process
  buffer_ = std::make_unique<Buffer>(fd_);
  out_ = std::make_unique<std::ostream>(buffer_.get());
}

void AtomicFile::open_in_place(int fd) {
  fd_ = fd;
  in_place_ = true;
  buffer_ = std::make_unique<Buffer>(fd_);
  out_ = std::make_unique<std::ostream>(buffer_.get());
}

AtomicFile::~AtomicFile() { discard(); }

std::ostream& AtomicFile::stream() { return *out_; }

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) {
    forget_partial_file(temp_);
    ::unlink(temp_.c_str());
  }
  temp_.clear();
}

void AtomicFile::finish() {
  out_->flush();
  int err = buffer_->error();
  if (err == 0 && !*out_) err = EIO;
  if (err == 0 && ::fsync(fd_) != 0) err = errno;
  if (in_place_ && (err == EINVAL || err == EROFS)) err = 0;  // a pipe, a terminal, /dev/null: nothing to sync
  if (err == 0 && ::close(std::exchange(fd_, -1)) != 0) err = errno;
  if (err != 0) {
    discard();
    fail(path_, "cannot write", err);
  }
}

void AtomicFile::commit() { commit_together({this}); }

void commit_together(std::vector<AtomicFile*> files) {
  try {
    for (AtomicFile* f : files) f->finish();
  } catch (...) {
    for (AtomicFile* f : files) f->discard();
    throw;
  }
  // Each target's present file, kept under a second name until every rename is done.
  std::vector<std::string> kept(files.size());
  std::vector<bool> existed(files.size(), false);
  auto drop_kept = [&] {
    for (const std::string& k : kept) {
      if (!k.empty()) ::unlink(k.c_str());
    }
  };
  for (std::size_t i = 0; i < files.size() && files.size() > 1; ++i) {
    if (files[i]->in_place_) continue;
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name = random_sibling(files[i]->path_, "previous");
      if (::link(files[i]->path_.c_str(), name.c_str()) == 0) {
        kept[i] = name;
        break;
      }
      if (errno != EEXIST) break;
    }
    existed[i] = !kept[i].empty() || errno != ENOENT;
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i]->in_place_) continue;
    if (::rename(files[i]->temp_.c_str(), files[i]->path_.c_str()) == 0) {
      forget_partial_file(files[i]->temp_);
      files[i]->temp_.clear();
      continue;
    }
    int err = errno;
    for (std::size_t j = 0; j < i; ++j) {  // put back what was replaced, remove what was not there
      if (files[j]->in_place_) continue;
      if (!existed[j]) {
        ::unlink(files[j]->path_.c_str());
      } else if (!kept[j].empty() && ::rename(kept[j].c_str(), files[j]->path_.c_str()) == 0) {
        kept[j].clear();
      }
    }
    for (AtomicFile* f : files) f->discard();
    drop_kept();
    fail(files[i]->path_, "cannot replace", err);
  }
  drop_kept();
  for (AtomicFile* f : files) {
    if (!f->in_place_) sync_directory(f->path_);
  }
}

void write_file_atomically(const std::string& path, std::string_view content, const std::vector<std::string>& inputs) {
  write_files_atomically({{path, std::string(content)}}, inputs);
}

void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files,
                            const std::vector<std::string>& inputs) {
  std::vector<std::unique_ptr<AtomicFile>> open;
  std::vector<AtomicFile*> all;
  for (const auto& [path, content] : files) {
    open.push_back(std::make_unique<AtomicFile>(path, inputs));
    all.push_back(open.back().get());
    open.back()->stream().write(content.data(), static_cast<std::streamsize>(content.size()));
  }
  commit_together(std::move(all));
}

}  // namespace cuprobe
