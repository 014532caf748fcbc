#include "net/http_response_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/utf8.h"

namespace cuprobe {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A comma-separated header value ("keep-alive, Upgrade") holds `token` (case-insensitive).
bool has_token(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    std::size_t comma = value.find(',');
    if (iequals(trim(value.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

bool HttpResponseParser::fail(const char* reason, std::string detail) {
  state_ = State::kError;
  error_ = reason;
  error_detail_ = std::move(detail);
  line_.clear();
  return false;
}

// Cuts one '\n'-terminated line from data (joined with what an earlier feed left).
// complete=false means the line continues in the next feed.
bool HttpResponseParser::take_line(std::string_view& data, std::string_view& line, std::size_t cap, bool& complete) {
  std::size_t nl = data.find('\n');
  std::size_t take = nl == std::string_view::npos ? data.size() : nl + 1;
  if (line_.size() + take > cap) return false;
  complete = nl != std::string_view::npos;
  if (line_.empty() && complete) {
    line = data.substr(0, nl);
  } else {
    line_.append(data.substr(0, take));
    if (complete) {
      line = std::string_view(line_).substr(0, line_.size() - 1);
    }
  }
  data.remove_prefix(take);
  if (complete && !line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

bool HttpResponseParser::on_status_line(std::string_view line) {
  // HTTP/1.1 200 OK
  if (!line.starts_with("HTTP/1.") || line.size() < 12 || line[8] != ' ') {
    return fail("malformed_http", "bad status line '" + printable_ascii(line) + "'");
  }
  std::string_view code = line.substr(9, 3);
  int value = 0;
  auto [end, ec] = std::from_chars(code.data(), code.data() + code.size(), value);
  if (ec != std::errc() || end != code.data() + 3 || value < 100 || value > 599 ||
      (line.size() > 12 && line[12] != ' ')) {
    return fail("malformed_http", "bad status code in '" + printable_ascii(line) + "'");
  }
  status_ = value;
  http11_ = line[7] != '0';
  state_ = State::kHeaders;
  return true;
}

bool HttpResponseParser::on_header_line(std::string_view line) {
  if (line.empty()) return on_headers_end();
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return fail("malformed_http", "bad header line '" + printable_ascii(line) + "'");
  }
  std::string_view name = line.substr(0, colon);
  std::string_view value = trim(line.substr(colon + 1));
  if (iequals(name, "content-type")) {
    content_type_ = lower(value);
  } else if (iequals(name, "location")) {
    location_ = std::string(value.substr(0, 4096));
  } else if (iequals(name, "connection")) {
    if (has_token(value, "close")) close_ = true;
  } else if (iequals(name, "transfer-encoding")) {
    if (lower(value).find("chunked") != std::string::npos) chunked_ = true;
  } else if (iequals(name, "content-length")) {
    std::uint64_t length = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
      return fail("malformed_http", "bad Content-Length '" + printable_ascii(value) + "'");
    }
    if (has_length_ && length != remaining_) return fail("malformed_http", "conflicting Content-Length headers");
    has_length_ = true;
    remaining_ = length;
  }
  return true;
}

bool HttpResponseParser::on_headers_end() {
  if (status_ >= 100 && status_ < 200) {  // interim response: the real one follows
    state_ = State::kStatusLine;
    content_type_.clear();
    location_.clear();
    chunked_ = has_length_ = close_ = false;
    remaining_ = 0;
    return true;
  }
  if (status_ == 204 || status_ == 304) {
    no_body_ = true;
    state_ = State::kDone;
  } else if (chunked_) {
    state_ = State::kChunkSize;
  } else if (has_length_) {
    state_ = remaining_ == 0 ? State::kDone : State::kBody;
  } else {
    state_ = State::kBody;  // until the connection closes
  }
  return true;
}

bool HttpResponseParser::on_chunk_size_line(std::string_view line) {
  std::string_view size = trim(line.substr(0, line.find(';')));
  if (size.empty() || size.size() > 15) return fail("bad_chunk", "bad chunk size line '" + printable_ascii(line) + "'");
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), value, 16);
  if (ec != std::errc() || end != size.data() + size.size()) {
    return fail("bad_chunk", "bad chunk size '" + printable_ascii(size) + "'");
  }
  remaining_ = value;
  state_ = value == 0 ? State::kTrailers : State::kChunkData;
  return true;
}

bool HttpResponseParser::feed(std::string_view data, HttpBodySink& sink) {
  while (!data.empty()) {
    switch (state_) {
      case State::kDone:
        return true;
      case State::kError:
        return false;
      case State::kStatusLine:
      case State::kHeaders:
      case State::kTrailers: {
        std::string_view line;
        bool complete = false;
        if (!take_line(data, line, limits_.max_header_bytes - std::min(header_bytes_, limits_.max_header_bytes),
                       complete)) {
          return fail("header_too_large",
                      "response headers exceed " + std::to_string(limits_.max_header_bytes) + " bytes");
        }
        if (!complete) return true;
        header_bytes_ += line.size() + 2;
        bool ok = state_ == State::kStatusLine ? on_status_line(line)
                  : state_ == State::kHeaders  ? on_header_line(line)
                                               : true;
        if (ok && state_ == State::kTrailers && line.empty()) state_ = State::kDone;
        line_.clear();
        if (!ok) return false;
        break;
      }
      case State::kChunkSize:
      case State::kChunkDataEnd: {
        std::string_view line;
        bool complete = false;
        if (!take_line(data, line, limits_.max_chunk_line, complete)) {
          return fail("bad_chunk", "chunk size line longer than " + std::to_string(limits_.max_chunk_line) + " bytes");
        }
        if (!complete) return true;
        bool ok = true;
        if (state_ == State::kChunkDataEnd) {
          if (!line.empty()) {
            ok = fail("bad_chunk", "chunk data longer than its declared size");
          } else {
            state_ = State::kChunkSize;
          }
        } else {
          ok = on_chunk_size_line(line);
        }
        line_.clear();
        if (!ok) return false;
        break;
      }
      case State::kChunkData:
      case State::kBody: {
        bool until_close = state_ == State::kBody && !has_length_;
        std::size_t take =
            until_close ? data.size() : static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, data.size()));
        sink.on_body(data.substr(0, take));
        data.remove_prefix(take);
        if (!until_close) {
          remaining_ -= take;
          if (remaining_ == 0) state_ = state_ == State::kChunkData ? State::kChunkDataEnd : State::kDone;
        }
        break;
      }
    }
  }
  return state_ != State::kError;
}

bool HttpResponseParser::finish_on_eof() {
  if (state_ == State::kDone) return true;
  if (state_ == State::kError) return false;
  if (state_ == State::kBody && !has_length_) {
    state_ = State::kDone;
    return true;
  }
  if (state_ <= State::kHeaders) return fail("server_closed", "connection closed before the response headers ended");
  return fail("server_closed", "connection closed in the middle of the response body");
}

}  // namespace cuprobe
