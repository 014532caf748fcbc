// A file's bytes, decompressed on the fly when it is gzip or xz (detected from
// the magic bytes, not the name). Errors are InputErrors naming the file and
// the offset in the compressed file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cuprobe {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes into dst; returns 0 only at the end of the data.
  virtual std::size_t read(char* dst, std::size_t n) = 0;
  // "plain", "gzip" or "xz".
  virtual const char* encoding() const = 0;
};

// Opens the file once (pipes and FIFOs too): the bytes it sniffs are not lost.
// raw_head, when given, receives the file's first (up to 16) bytes as stored.
std::unique_ptr<ByteSource> open_byte_source(const std::string& path, std::string* raw_head = nullptr);
// An uncompressed file's bytes from `offset` on (for parsing a file in parts).
std::unique_ptr<ByteSource> open_plain_file_from(const std::string& path, std::uint64_t offset);
// Writes everything the source has left to a new file at `path`; InputErrors name `shown_as`.
void copy_to_file(ByteSource& source, const std::string& path, const std::string& shown_as);
// `head` (bytes already read from `rest`) followed by what `rest` has left: a
// stream sniffed by its first bytes is read whole.
std::unique_ptr<ByteSource> prepend_bytes(std::string head, std::unique_ptr<ByteSource> rest);
// Reads up to n bytes (fewer only at the end of the data).
std::string read_up_to(ByteSource& source, std::size_t n);
// Bytes held in memory (plain text), handed out at most max_read at a time.
std::unique_ptr<ByteSource> memory_byte_source(std::string data, std::size_t max_read = SIZE_MAX);

}  // namespace cuprobe
