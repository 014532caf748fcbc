#include "net/sse_parser.h"

#include <cstring>

namespace cuprobe {

void SseParser::on_line(std::string_view line, SseSink& sink) {
  if (line.empty()) {
    if (has_data_) sink.on_event(event_, data_);
    data_.clear();
    event_.clear();
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;  // comment / keep-alive
  std::size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
  } else if (field == "event") {
    event_.assign(value);
  }
  // "id", "retry" and unknown fields do not matter to a benchmark client.
}

bool SseParser::feed(std::string_view bytes, SseSink& sink) {
  if (overflowed_) return false;
  std::size_t i = 0;
  if (after_cr_ && !bytes.empty() && bytes[0] == '\n') i = 1;
  after_cr_ = false;
  while (i < bytes.size()) {
    const char* start = bytes.data() + i;
    std::size_t left = bytes.size() - i;
    const void* nl = std::memchr(start, '\n', left);
    const void* cr =
        std::memchr(start, '\r', nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - start) : left);
    const char* end = static_cast<const char*>(cr ? cr : nl);
    if (!end) {
      if (line_.size() + left + data_.size() > max_event_bytes_) {
        overflowed_ = true;
        return false;
      }
      line_.append(start, left);
      return true;
    }
    std::size_t len = static_cast<std::size_t>(end - start);
    if (line_.empty()) {
      on_line(std::string_view(start, len), sink);
    } else {
      line_.append(start, len);
      on_line(line_, sink);
      line_.clear();
    }
    if (data_.size() > max_event_bytes_) {
      overflowed_ = true;
      return false;
    }
    i += len + 1;
    if (*end == '\r') {
      if (i < bytes.size()) {
        if (bytes[i] == '\n') ++i;
      } else {
        after_cr_ = true;
      }
    }
  }
  return true;
}

}  // namespace cuprobe
