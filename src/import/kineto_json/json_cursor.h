// A streaming pull reader for one JSON document of any size: it holds only a
// window of the text, refilled from a ByteSource, so memory stays flat. Views
// it returns stay valid until the next call on the cursor. Every syntax error
// throws InputError with the byte offset in the decompressed text.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/byte_source.h"

namespace cuprobe {

class JsonCursor {
 public:
  // start_offset: where in the file the source's first byte is.
  JsonCursor(ByteSource& source, std::string file_name, std::size_t window_bytes = 4 << 20,
             std::uint64_t start_offset = 0);

  // The next significant character without consuming it; '\0' at the end.
  [[gnu::always_inline]] char peek() {
    if (pos_ + 1 < end_) {
      if (static_cast<unsigned char>(buf_[pos_]) > ' ') return buf_[pos_];
      // ": " and ", " are most of the whitespace in a trace: one space, then a token.
      if (buf_[pos_] == ' ' && static_cast<unsigned char>(buf_[pos_ + 1]) > ' ') return buf_[++pos_];
    }
    return peek_slow();
  }
  void expect(char c) {  // consumes c or throws
    char got = peek();
    if (got != c) [[unlikely]]
      fail_expected(c, got);
    ++pos_;
  }
  bool consume_if(char c) {  // consumes c when it is next
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  std::string_view string();  // a string value or key, unescaped
  std::string_view number();  // the raw text of a number; one that reaches the end of the file is truncated
  // Skips any value. Containers skipped this way are checked for balance and
  // well-formed strings only: values nobody reads are not validated further.
  void skip_value();
  void skip_rest_of_object();  // after some keys of an object: up to and including its '}'

  // A value skipped as skip_value skips it, kept as written: `text` is the value followed by
  // up to `context` bytes of what comes after it (fewer only at the end of the file), so a
  // second cursor over `text` sees what this one would have. Valid until the next call.
  struct RawValue {
    std::string_view text;
    std::size_t size = 0;      // the value's own bytes, at the front of text
    std::uint64_t offset = 0;  // of the value's first byte
  };
  // nullopt, with nothing consumed, where skip_value would throw on the text (the caller reads
  // the value itself and meets the error as it would have); a failing source still throws.
  std::optional<RawValue> raw_value(std::size_t context);

  // Reads the next key of an object and the ':' after it; false at '}'.
  // Call with first=true right after '{'.
  bool next_key(std::string_view& key, bool& first);
  // Advances to the next element of an array; false at ']'.
  bool next_element(bool& first);

  std::uint64_t offset() const { return base_offset_ + pos_; }
  // The text from the current position on, refilled to `n` bytes where the input has them (fewer
  // only at its end); valid until the next call. For a second reader of a run of elements
  // (kineto_json/simd_window.h), which then moves the cursor past what it read with advance().
  std::string_view lookahead(std::size_t n) {
    ensure_available(n);
    return std::string_view(buf_.data() + pos_, std::min(n, end_ - pos_));
  }
  void advance(std::size_t n) { pos_ += std::min(n, end_ - pos_); }
  // Moves forward to `target` without parsing what lies between.
  void discard_until(std::uint64_t target);
  bool at_end();
  [[noreturn]] void fail(const std::string& reason) const;
  [[noreturn]] void fail_at(std::uint64_t offset, const std::string& reason) const;
  // "unexpected end of file (truncated trace?) WHERE".
  [[noreturn]] void fail_eof(const char* where) const;
  const std::string& file_name() const { return file_; }

 private:
  // Keeps bytes from keep_from on, reads more; returns false at the end of input.
  bool refill(std::size_t& keep_from);
  void skip_whitespace();
  void ensure_available(std::size_t n);  // refills until n bytes are in the window, or the end
  char peek_slow();
  [[noreturn, gnu::cold]] void fail_expected(char c, char got) const;
  void skip_string();
  void skip_to_close(int depth);
  std::string_view string_slow(std::size_t start);

  ByteSource& source_;
  std::string file_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  std::uint64_t base_offset_ = 0;
  bool eof_ = false;
  bool source_failed_ = false;
  // While pinned, refills keep the window from pin_ on (raw_value's start).
  bool pinned_ = false;
  std::size_t pin_ = 0;
  std::string scratch_;
  std::string key_scratch_;
};

}  // namespace cuprobe
