#include "common/output_target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "common/atomic_file.h"
#include "common/errno_text.h"
#include "common/error.h"
#include "common/stop_signals.h"

namespace cuprobe {
namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  if (err == EINTR) {
    throw Error(stopped_text() + " while writing " + (path == "-" ? std::string("stdout") : path) +
                ": it was not written whole");
  }
  throw Error("cannot write " + (path == "-" ? std::string("stdout") : path) + ": " + errno_text(err));
}

// Regular files (and names not there yet) are written through a temporary file or appended to.
bool is_in_place(const std::string& path) {
  struct stat st {};
  return descriptor_named(path) >= 0 ||
         (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode));
}

}  // namespace

void check_writable(const std::string& path, bool append) {
  if (int fd = descriptor_named(path); fd >= 0) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0) fail(path, errno);
    if ((flags & O_ACCMODE) == O_RDONLY) fail(path, EBADF);
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISSOCK(st.st_mode)) {
      AtomicFile refused(path);  // throws its message
    }
    if (S_ISDIR(st.st_mode)) fail(path, EISDIR);
    if (!S_ISREG(st.st_mode)) return;  // a device or FIFO: opened when written
    if (append && st.st_size > 0) {
      int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
      if (fd < 0) fail(path, errno);
      ::close(fd);
      return;
    }
  }
  AtomicFile probe(path);  // its temporary file proves the directory; dropped, it is removed
}

std::string last_byte_of(const std::string& path) {
  if (is_in_place(path)) return "";
  int fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "";
  struct stat st {};
  char c = 0;
  bool got = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && ::pread(fd, &c, 1, st.st_size - 1) == 1;
  ::close(fd);
  return got ? std::string(1, c) : std::string();
}

void append_to_file(const std::string& path, std::string_view content, const std::vector<std::string>& inputs) {
  if (is_in_place(path)) {
    write_file_atomically(path, content, inputs);  // streamed into, never renamed over
    return;
  }
  refuse_output_over_inputs(path, inputs);
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, errno);
  int err = 0;
  const int signals = stop_signals_heard();
  for (std::size_t off = 0; off < content.size() && err == 0;) {
    ssize_t n = ::write(fd, content.data() + off, content.size() - off);
    if (n < 0 && errno == EINTR && stop_signals_heard() == signals) continue;
    if (n < 0) err = errno;
    if (n > 0) off += static_cast<std::size_t>(n);
    if (err == 0 && off < content.size() && stop_signals_heard() != signals) err = EINTR;
  }
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) fail(path, err);
}

}  // namespace cuprobe
