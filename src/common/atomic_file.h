// Files are written to PATH.partial and renamed into place when complete
// (DESIGN.md's convention): a reader never sees a half-written PATH, and an
// interrupted or failed write leaves PATH.partial, whose name says it is
// incomplete, next to whatever PATH held before.
#pragma once

#include <fstream>
#include <string>
#include <string_view>

namespace cuprobe {

class AtomicFile {
 public:
  // Creates PATH.partial; throws Error ("cannot write PATH.partial: reason").
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  const std::string& temp_path() const { return temp_; }

  // Flushes, closes and renames PATH.partial to PATH; throws Error when the
  // data did not all reach the file or the rename failed (PATH.partial stays).
  void commit();

 private:
  std::string path_, temp_;
  std::ofstream out_;
};

// The whole of `content` as PATH, through PATH.partial; throws Error.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace cuprobe
