// A dataset file (ShareGPT JSON, JSONL prompts) read as a bounded stream: its
// bytes are never all held at once, a file over the size limit ends with one
// line naming it and the flag that raises the limit, devices (/dev/zero) are
// refused, a pipe or FIFO is read as it comes (one nobody writes to reads as
// empty), and a JSON error names the byte and the fix, never echoing the
// offending text (a number of a million digits, a line of a megabyte).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

namespace cuprobe {

constexpr std::uint64_t kDefaultDatasetMaxBytes = std::uint64_t{1} << 30;  // --dataset-max-size
// A token count a dataset asks for (a prompt's length, a max_tokens): beyond any model's context, and what
// a prompt of that many tokens costs to build stays bounded (issue 39: 1e9 asked for 4.3 GB).
constexpr std::int64_t kMaxDatasetTokens = std::int64_t{1} << 20;

class DatasetFile final : public std::streambuf {
 public:
  // Throws InputError: cannot open, a directory or a device.
  DatasetFile(std::string path, std::uint64_t max_bytes = kDefaultDatasetMaxBytes);
  ~DatasetFile() override;
  DatasetFile(const DatasetFile&) = delete;
  DatasetFile& operator=(const DatasetFile&) = delete;

  // The whole file as one JSON document; InputError "FILE: byte N: reason".
  nlohmann::json parse_json();
  // The next line without its '\n'; false at the end. `line_start`: its byte offset.
  bool next_line(std::string& line, std::uint64_t& line_start);
  // One line parsed; InputError "FILE: byte N: line L: reason".
  nlohmann::json parse_line(const std::string& line, std::uint64_t line_start, long long line_no) const;

  const std::string& path() const { return path_; }

 protected:
  int_type underflow() override;

 private:
  std::size_t collapse(char* data, std::size_t n);
  void end_blank_run(std::uint64_t at);
  std::uint64_t file_offset(std::uint64_t handed) const;

  std::string path_;
  std::uint64_t max_bytes_;
  int fd_ = -1;
  std::uint64_t read_ = 0;    // bytes read from the file
  std::uint64_t handed_ = 0;  // bytes handed out before the buffer
  std::vector<char> buffer_;
  // parse_json drops whitespace outside strings past kKeptBlanks in a row: the JSON library keeps every byte
  // between two tokens, so a gigabyte of blanks would cost a gigabyte. drops_: (handed offset, bytes dropped
  // before it), to name the file's own byte in messages.
  bool collapse_ = false, in_string_ = false, escaped_ = false;
  std::uint64_t blank_run_ = 0, dropped_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> drops_;
};

// A JSON library error as a short reason with what to do, never the offending text.
std::string json_error_reason(const nlohmann::json::exception& e);

}  // namespace cuprobe
