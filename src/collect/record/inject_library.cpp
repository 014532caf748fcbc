#include "collect/record/inject_library.h"

#include <elf.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

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

std::string inject_library_problem(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};  // the session records counters only, and says so
  if (!std::filesystem::is_regular_file(path, ec)) return "not a regular file";
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, sizeof magic)) return "cannot be read";
  if (magic[0] != '\x7f' || magic[1] != 'E' || magic[2] != 'L' || magic[3] != 'F') return "not an ELF shared library";
  return {};
}

bool is_elf_program(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header) || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_phentsize != sizeof(Elf64_Phdr)) {
    return false;
  }
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(header.e_phoff + i * sizeof ph));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return false;
    if (ph.p_type == PT_INTERP) return true;
  }
  return false;
}

}  // namespace cuprobe
