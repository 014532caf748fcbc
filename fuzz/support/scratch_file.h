// The one file a fuzz target hands to a reader: a path in a private directory
// of this process, rewritten for every input. SQLite's side files (-journal,
// -wal, -shm) are removed with it so one input cannot leak into the next.
#pragma once

#include <string>
#include <string_view>

namespace cuprobe::fuzz {

class ScratchFile {
 public:
  // name: the file's name inside the directory (its extension may matter to a reader).
  explicit ScratchFile(std::string_view name);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  // Replaces the file's contents; returns its path.
  const std::string& write(std::string_view bytes);
  void remove_side_files() const;
  const std::string& path() const { return path_; }

 private:
  std::string dir_;
  std::string path_;
};

}  // namespace cuprobe::fuzz
