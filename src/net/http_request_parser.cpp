#include "net/http_request_parser.h"

#include <algorithm>

namespace cuprobe {
namespace {

constexpr std::string_view kEndOfHead = "\r\n\r\n";

bool header_is(std::string_view line, std::string_view lowercase_name) {
  if (line.size() <= lowercase_name.size() || line[lowercase_name.size()] != ':') return false;
  for (std::size_t i = 0; i < lowercase_name.size(); ++i) {
    char c = line[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lowercase_name[i]) return false;
  }
  return true;
}

// A CR or LF that is not part of a CRLF pair.
bool has_bare_line_break(std::string_view head) {
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '\r' && (i + 1 == head.size() || head[i + 1] != '\n')) return true;
    if (head[i] == '\n' && (i == 0 || head[i - 1] != '\r')) return true;
  }
  return false;
}

bool has_control_character(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  }
  return false;
}

}  // namespace

bool parse_http_request_head(std::string_view head, HttpRequest& req) {
  std::size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  std::size_t sp1 = line.find(' ');
  std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.substr(sp2 + 1, 5) != "HTTP/") return false;
  if (has_control_character(line) || has_bare_line_break(head)) return false;
  req.method = std::string(line.substr(0, sp1));
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  req.path = std::string(target.substr(0, target.find('?')));
  while (eol != std::string_view::npos) {
    std::size_t next = head.find("\r\n", eol + 2);
    std::string_view h = head.substr(eol + 2, next == std::string_view::npos ? next : next - eol - 2);
    if (header_is(h, "accept")) {
      std::string_view v = h.substr(7);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      req.accept = std::string(v);
    }
    eol = next;
  }
  return true;
}

HttpRequestParser::State HttpRequestParser::feed(std::string_view data) {
  if (state_ != State::kHead) return state_;
  // Only the first max_head_ bytes can hold the head: keep no more than that.
  std::size_t searched = head_.size() < kEndOfHead.size() ? 0 : head_.size() - (kEndOfHead.size() - 1);
  head_.append(data.substr(0, std::min(data.size(), max_head_ - head_.size())));
  std::size_t end = head_.find(kEndOfHead, searched);
  if (end != std::string::npos) {
    if (parse_http_request_head(std::string_view(head_).substr(0, end + 2), request_)) {
      state_ = State::kDone;
    } else {
      state_ = State::kFailed;
      error_status_ = 400;
    }
    head_.clear();
    head_.shrink_to_fit();
  } else if (head_.size() >= max_head_) {
    state_ = State::kFailed;
    error_status_ = 431;
    head_.clear();
    head_.shrink_to_fit();
  }
  return state_;
}

}  // namespace cuprobe
