#include "collect/record/inject_library.h"

#include <cstdlib>
#include <filesystem>

namespace cuprobe {

namespace {

constexpr const char* kLibraryName = "libcuprobe_inject.so";

std::filesystem::path self_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path(".") : exe.parent_path();
}

}  // namespace

std::vector<std::string> inject_library_candidates() {
  auto dir = self_dir();
  return {(dir / kLibraryName).string(), (dir.parent_path() / CUPROBE_INJECT_INSTALL_DIR / kLibraryName).string()};
}

std::string default_inject_library() {
  const char* env = std::getenv("CUPROBE_INJECT_LIBRARY");
  if (env && *env) return env;
  auto candidates = inject_library_candidates();
  for (const auto& path : candidates) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) return path;
  }
  return candidates.front();
}

}  // namespace cuprobe
