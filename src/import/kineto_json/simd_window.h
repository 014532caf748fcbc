// The Kineto importer's fast reader of traceEvents (issue 38): simdjson's On-Demand API over
// bounded windows of the array, so that memory stays that of the streaming cursor.
//
// A window is a run of whole elements cut from JsonCursor::lookahead at a guessed element
// boundary ('}', ',', '{' with whitespace between), copied as one array ('[' + text + ']') into a
// padded buffer and parsed by simdjson; a wrong guess (inside a string or a nested array) makes
// that array malformed, which simdjson reports. SimdPull gives the importer's event reader the
// cursor's pull API (peek, number, string, next_key, ...) over the window's values, so both
// readers run the same code. Where simdjson refuses the text, or it holds what SimdPull cannot
// read exactly as the cursor would (a literal or number the cursor would reject, an escape
// simdjson decodes otherwise), SimdPull throws SimdFallback and the importer reads from that
// element on with the cursor, which reads it as before (or fails with its own InputError).
// The rest of that window is the cursor's too; simdjson starts again at the next one. One
// difference is left: nesting deeper than the cursor's 512 levels inside a value the importer
// skips, which the cursor refuses and simdjson's skip (bracket counting) does not.
// Built only with simdjson (CUPROBE_HAVE_SIMDJSON); without it the cursor reads everything. Not the
// default reader (kineto_importer.h says why); CUPROBE_KINETO_READER=simdjson picks it.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "import/kineto_json/json_cursor.h"

namespace cuprobe {

// SimdPull met what the cursor must read: the importer hands the element back to it.
struct SimdFallback {};

class SimdWindow {
 public:
  explicit SimdWindow(std::size_t max_bytes);
  std::size_t max_bytes() const { return max_bytes_; }

  // The length of the longest prefix of `text` (which starts at an element's '{') that ends with
  // the '}' of an element followed, in `text`, by ',' and the next element's '{'; 0 if none.
  static std::size_t cut(std::string_view text);

  // Copies text (at most max_bytes) as an array and starts simdjson on it; false where simdjson
  // refuses it at once (invalid UTF-8, a control character or an unclosed string in it, ...).
  bool start(std::string_view text, std::uint64_t file_offset, simdjson::ondemand::document& doc);

  // Where in the file a byte of the copied text lies.
  std::uint64_t file_offset(const char* p) const { return offset_ + static_cast<std::uint64_t>(p - (buf_.get() + 1)); }
  const char* end() const { return buf_.get() + size_; }  // just past the closing ']'

 private:
  std::size_t max_bytes_;
  std::unique_ptr<char[]> buf_;
  std::size_t size_ = 0;
  std::uint64_t offset_ = 0;
  simdjson::ondemand::parser parser_;
};

// JsonCursor's pull API over the values of one element of a window (see json_cursor.h for what
// each call means); what it cannot mirror exactly throws SimdFallback.
class SimdPull {
 public:
  SimdPull(const SimdWindow& window, const std::string& file_name) : window_(window), file_(file_name) {}

  void begin_element(simdjson::ondemand::value element) {
    depth_ = 0;
    set_value(element);
  }

  char peek() const {
    if (!has_value_) fallback();
    return token_[0];
  }
  std::uint64_t offset() const {
    if (!has_value_) fallback();
    return window_.file_offset(token_.data());
  }
  void expect(char c);
  std::string_view string();
  std::string_view number();
  void skip_value();
  void skip_rest_of_object();
  std::optional<JsonCursor::RawValue> raw_value(std::size_t context);
  bool next_key(std::string_view& key, bool& first);
  bool next_element(bool& first);
  const std::string& file_name() const { return file_; }

  [[noreturn]] static void fallback() { throw SimdFallback{}; }

 private:
  struct Frame {
    bool object = false;
    bool started = false;
    simdjson::ondemand::object_iterator fields;
    simdjson::ondemand::array_iterator elements;
  };
  static constexpr int kMaxFrames = 4;  // an event, its args, a list in them

  void set_value(simdjson::ondemand::value v) {
    value_ = v;
    token_ = value_.raw_json_token();
    if (token_.empty()) fallback();
    // A string followed by ':' is a key to simdjson's skip, which then walks on as if in an
    // object; the cursor refuses the ':' after a value (the next token follows the whitespace).
    if (token_[0] == '"' && token_.data()[token_.size()] == ':') fallback();
    has_value_ = true;
  }
  void check_literal(std::string_view word) const;
  std::size_t container_size() const;  // bytes of the object or array at token_, as the cursor skips it
  // The array at token_ starts with ',' or ':' or a string followed by ':': simdjson's skip of a
  // started array takes such a first token for a key or a separator and ends at the wrong ']'.
  bool odd_first_element() const;

  const SimdWindow& window_;
  const std::string& file_;
  simdjson::ondemand::value value_;
  std::string_view token_;  // the value's first token and the whitespace after it
  bool has_value_ = false;
  Frame frames_[kMaxFrames];
  int depth_ = 0;
};

}  // namespace cuprobe
