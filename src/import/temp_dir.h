// A private directory under $TMPDIR, removed with everything in it when the
// object goes (for copies of run files that SQLite must open by name).
#pragma once

#include <string>

namespace cuprobe {

class TempDir {
 public:
  TempDir();  // throws Error when it cannot be made
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace cuprobe
