#include "common/bounded_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "common/errno_text.h"
#include "common/error.h"
#include "common/stop_signals.h"

namespace cuprobe {
namespace {

std::string over(std::uint64_t max_bytes) { return "over the limit of " + std::to_string(max_bytes) + " bytes"; }

}  // namespace

std::string read_bounded_file(const std::string& path, std::uint64_t max_bytes) {
  int fd = -1;  // a FIFO waits for its writer (SIGINT/SIGTERM end the wait)
  const int signals = stop_signals_heard();
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR && stop_signals_heard() == signals);
  if (fd < 0 && errno == EINTR) throw InputError(path, stopped_text() + " while waiting to read");
  if (fd < 0) throw InputError(path, "cannot open: " + errno_text(errno));
  struct stat st {};
  std::string refused;
  if (::fstat(fd, &st) != 0) {
    refused = "cannot read: " + errno_text(errno);
  } else if (S_ISDIR(st.st_mode)) {
    refused = "a directory, not a file";
  } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    refused = "a device, not a file: give a file";
  } else if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    refused = std::to_string(st.st_size) + " bytes, " + over(max_bytes);
  }
  std::string text;
  char buf[65536];
  while (refused.empty()) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR && stop_signals_heard() == signals) continue;
    if (n < 0) refused = errno == EINTR ? stopped_text() + " while reading" : "cannot read: " + errno_text(errno);
    if (n <= 0) break;
    if (text.size() + static_cast<std::uint64_t>(n) > max_bytes) {
      refused = over(max_bytes);
    } else {
      text.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  if (!refused.empty()) throw InputError(path, refused);
  return text;
}

}  // namespace cuprobe
