#include "common/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace cuprobe {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_(path_ + ".partial"), out_(temp_, std::ios::binary | std::ios::trunc) {
  if (!out_) throw Error("cannot write " + temp_ + ": " + std::strerror(errno));
}

void AtomicFile::commit() {
  out_.flush();
  bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || !out_) throw Error("writing " + temp_ + " failed (disk full?)");
  std::error_code ec;
  std::filesystem::rename(temp_, path_, ec);
  if (ec) throw Error("cannot rename " + temp_ + " to " + path_ + ": " + ec.message());
}

void write_file_atomically(const std::string& path, std::string_view content) {
  AtomicFile file(path);
  file.stream().write(content.data(), static_cast<std::streamsize>(content.size()));
  file.commit();
}

}  // namespace cuprobe
