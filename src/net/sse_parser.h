// Incremental server-sent-events parser (the text/event-stream format of the
// WHATWG HTML standard): events may be split across reads anywhere, lines end
// in LF, CRLF or CR, ':' lines are comments, "data:" takes an optional single
// space, several data lines join with '\n', a blank line dispatches the event.
#pragma once

#include <string>
#include <string_view>

namespace cuprobe {

class SseSink {
 public:
  virtual ~SseSink() = default;
  // event is the "event:" field ("" when absent); data is the joined data lines.
  virtual void on_event(std::string_view event, std::string_view data) = 0;
};

class SseParser {
 public:
  explicit SseParser(std::size_t max_event_bytes = 8 * 1024 * 1024) : max_event_bytes_(max_event_bytes) {}
  // Returns false once an event or line exceeded the cap (the stream is then unusable).
  bool feed(std::string_view bytes, SseSink& sink);
  bool overflowed() const { return overflowed_; }
  // Bytes of an event that has started but not yet been dispatched by a blank line.
  bool has_pending() const { return !line_.empty() || has_data_; }

 private:
  void on_line(std::string_view line, SseSink& sink);

  std::size_t max_event_bytes_;
  std::string line_;  // partial line carried between feeds
  std::string data_;
  std::string event_;
  bool has_data_ = false;
  bool after_cr_ = false;  // last byte seen was '\r': a following '\n' belongs to it
  bool overflowed_ = false;
};

}  // namespace cuprobe
