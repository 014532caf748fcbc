#include "import/temp_dir.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace cuprobe {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "cuprobe-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    throw Error("cannot make a temporary directory: " + std::string(std::strerror(errno)));
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace cuprobe
