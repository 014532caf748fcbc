// Files are written whole or not at all (DESIGN.md's convention). The bytes go
// to a new temporary file beside the target, created with
// O_CREAT|O_EXCL|O_NOFOLLOW under a random name (NAME.XXXXXX.partial), so a
// file or link planted at any name is never followed, truncated or reused; it
// is synced and renamed over the target when complete. On failure, or when
// dropped uncommitted, the temporary file is removed and the target is as it
// was. A target that is one of the verb's inputs (the same file: device and
// inode, through links) is refused before anything is written. Every error
// names the target and the errno.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuprobe {

// Throws Error (exit 2) naming both when `output` resolves to one of `inputs`
// (same device and inode). Inputs that do not exist, and "-", are ignored.
void refuse_output_over_inputs(const std::string& output, const std::vector<std::string>& inputs);

class AtomicFile {
 public:
  // Refuses an input (refuse_output_over_inputs), then creates the temporary
  // file; throws Error ("cannot write PATH: reason (ERRNO)").
  explicit AtomicFile(std::string path, const std::vector<std::string>& inputs = {});
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // uncommitted: the temporary file is removed

  std::ostream& stream();
  const std::string& path() const { return path_; }

  // Flushes, syncs and renames the temporary file over PATH; throws Error when
  // the data did not all reach the disk or the rename failed (PATH unchanged).
  void commit();

 private:
  friend void commit_together(std::vector<AtomicFile*> files);
  void finish();  // flush, fsync, close: throws Error naming the target
  void discard() noexcept;

  class Buffer;
  std::string path_, temp_;
  int fd_ = -1;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> out_;
};

// Several files that belong together (analyze --csv): each is finished, then
// all are renamed into place; a failure at any point leaves every target as it
// was (those already replaced are put back).
void commit_together(std::vector<AtomicFile*> files);

// The whole of `content` as PATH; throws Error.
void write_file_atomically(const std::string& path, std::string_view content,
                           const std::vector<std::string>& inputs = {});

// Each (path, content) written, then all replaced together (commit_together).
void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files,
                            const std::vector<std::string>& inputs = {});

}  // namespace cuprobe
