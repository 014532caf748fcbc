// Files are written whole or not at all (DESIGN.md's convention). The bytes go
// to a new temporary file beside the target, created with
// O_CREAT|O_EXCL|O_NOFOLLOW under a random name (NAME.XXXXXX.partial), so a
// file or link planted at any name is never followed, truncated or reused; it
// is synced and renamed over the target when complete. On failure, or when
// dropped uncommitted, the temporary file is removed and the target is as it
// was. A target that is one of the verb's inputs (the same file: device and
// inode, through links) is refused before anything is written. Every error
// names the target and the errno.
//
// A target that is not a regular file is written in place, streamed, never
// renamed over (issue 39): "-" (stdout), a path naming a descriptor
// (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: a dup of N, so the
// shell's offset and append mode are kept), or an existing device node or
// FIFO (opened O_WRONLY without O_CREAT); a socket is refused. Its bytes are
// out as they are written: an uncommitted in-place file cannot be taken back.
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

// The descriptor a path names, -1 when none: "-" and /dev/stdout are 1,
// /dev/stderr 2, /dev/fd/N and /proc/self/fd/N are N.
int descriptor_named(const std::string& path);

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
  bool in_place() const { return in_place_; }  // written into the target, not renamed over it

  // Flushes, syncs and renames the temporary file over PATH; throws Error when
  // the data did not all reach the disk or the rename failed (PATH unchanged).
  void commit();

 private:
  friend void commit_together(std::vector<AtomicFile*> files);
  void finish();  // flush, fsync, close: throws Error naming the target
  void discard() noexcept;
  void open_in_place(int fd);

  class Buffer;
  std::string path_, temp_;
  int fd_ = -1;
  bool in_place_ = false;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> out_;
};

// Several files that belong together (analyze --csv): each is finished, then
// all are renamed into place; a failure at any point leaves every target as it
// was (those already replaced are put back). In-place files are only finished
// (they hold their bytes already), never renamed.
void commit_together(std::vector<AtomicFile*> files);

// The whole of `content` as PATH; throws Error.
void write_file_atomically(const std::string& path, std::string_view content,
                           const std::vector<std::string>& inputs = {});

// Each (path, content) written, then all replaced together (commit_together).
void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files,
                            const std::vector<std::string>& inputs = {});

}  // namespace cuprobe
