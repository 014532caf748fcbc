#include "support/scratch_file.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace cuprobe::fuzz {

ScratchFile::ScratchFile(std::string_view name) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/cuprobe-fuzz-XXXXXX";
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
  dir_ = pattern;
  path_ = dir_ + "/" + std::string(name);
}

ScratchFile::~ScratchFile() {
  remove_side_files();
  std::remove(path_.c_str());
  ::rmdir(dir_.c_str());
}

void ScratchFile::remove_side_files() const {
  for (const char* suffix : {"-journal", "-wal", "-shm"}) std::remove((path_ + suffix).c_str());
}

const std::string& ScratchFile::write(std::string_view bytes) {
  remove_side_files();
  std::FILE* f = std::fopen(path_.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path_);
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) throw std::runtime_error("cannot write " + path_);
  return path_;
}

}  // namespace cuprobe::fuzz
