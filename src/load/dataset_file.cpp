#include "load/dataset_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

#include "common/errno_text.h"
#include "common/error.h"

namespace cuprobe {
namespace {

constexpr std::uint64_t kKeptBlanks = 4096;  // whitespace in a row outside strings that parse_json passes on

// The DOM builder of the JSON library, keeping the position and reason of the first error instead of throwing
// the library's message (which quotes the offending text).
class PositionedDom : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  explicit PositionedDom(nlohmann::json& doc) : json_sax_dom_parser(doc, false) {}
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    // A number too large is reported after it: its first byte is more use.
    std::size_t back = ex.id == 406 ? std::min(position, token.size()) : std::min<std::size_t>(position, 1);
    error_at = position - back;
    reason = json_error_reason(ex);
    return false;
  }
  std::size_t error_at = 0;
  std::string reason;
};

std::string over_the_limit(std::uint64_t max_bytes) {
  return "over the limit of " + std::to_string(max_bytes) +
         " bytes for a dataset: raise it with --dataset-max-size SIZE if this file is meant";
}

}  // namespace

std::string json_error_reason(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (what.find("ill-formed UTF-8") != std::string::npos) {
    return "invalid UTF-8 in a string: the dataset must be UTF-8 text (convert it, e.g. iconv -t UTF-8)";
  }
  if (e.id == 406) return "a number too large for a double: fix or remove it";
  if (what.find("unexpected end of input") != std::string::npos) {
    return "the JSON ends early (unexpected end of input): is the file complete?";
  }
  // "... syntax error while parsing value - invalid literal; last read: '<text>'": the part between, short.
  std::size_t dash = what.find(" - ");
  std::string reason = dash == std::string::npos ? what.substr(what.find(']') + 2) : what.substr(dash + 3);
  reason = reason.substr(0, reason.find("; last read"));
  if (reason.size() > 120) reason = reason.substr(0, 117) + "...";
  return "not valid JSON: " + reason;
}

DatasetFile::DatasetFile(std::string path, std::uint64_t max_bytes)
    : path_(std::move(path)), max_bytes_(max_bytes), buffer_(1 << 16) {
  // O_NONBLOCK: a FIFO nobody writes to opens at once (and reads as empty) instead of waiting forever.
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) throw InputError(path_, "cannot open the dataset: " + errno_text(errno));
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  struct stat st {};
  std::string refused;
  if (::fstat(fd_, &st) != 0) refused = "cannot read the dataset: " + errno_text(errno);
  if (S_ISDIR(st.st_mode)) refused = "a directory, not a dataset file";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) refused = "a device, not a dataset file: give a file";
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes_) {
    refused = std::to_string(st.st_size) + " bytes, " + over_the_limit(max_bytes_);
  }
  if (!refused.empty()) {
    ::close(fd_);
    throw InputError(path_, refused);
  }
  setg(buffer_.data(), buffer_.data(), buffer_.data());
}

DatasetFile::~DatasetFile() { ::close(fd_); }

DatasetFile::int_type DatasetFile::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  handed_ += static_cast<std::uint64_t>(egptr() - eback());
  for (;;) {
    ssize_t n;
    do {
      n = ::read(fd_, buffer_.data(), buffer_.size());
    } while (n < 0 && errno == EINTR);
    if (n < 0) throw InputError(path_, static_cast<long long>(read_), "read failed: " + errno_text(errno));
    read_ += static_cast<std::uint64_t>(n);
    if (read_ > max_bytes_) throw InputError(path_, over_the_limit(max_bytes_));
    if (n == 0) {
      if (collapse_) end_blank_run(handed_);
      setg(buffer_.data(), buffer_.data(), buffer_.data());
      return traits_type::eof();
    }
    std::size_t kept = collapse_ ? collapse(buffer_.data(), static_cast<std::size_t>(n)) : static_cast<std::size_t>(n);
    if (kept == 0) continue;
    setg(buffer_.data(), buffer_.data(), buffer_.data() + kept);
    return traits_type::to_int_type(*gptr());
  }
}

std::size_t DatasetFile::collapse(char* data, std::size_t n) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < n; ++i) {
    char c = data[i];
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (++blank_run_ > kKeptBlanks) {
        ++dropped_;
        continue;
      }
    } else {
      end_blank_run(handed_ + out);
      in_string_ = c == '"';
    }
    data[out++] = c;
  }
  return out;
}

void DatasetFile::end_blank_run(std::uint64_t at) {
  if (blank_run_ > kKeptBlanks && (drops_.empty() || drops_.back().second != dropped_))
    drops_.emplace_back(at, dropped_);
  blank_run_ = 0;
}

std::uint64_t DatasetFile::file_offset(std::uint64_t handed) const {
  auto after = std::upper_bound(drops_.begin(), drops_.end(), handed,
                                [](std::uint64_t at, const auto& drop) { return at < drop.first; });
  return handed + (after == drops_.begin() ? 0 : std::prev(after)->second);
}

nlohmann::json DatasetFile::parse_json() {
  nlohmann::json doc;
  PositionedDom dom(doc);
  collapse_ = true;
  if (!nlohmann::json::sax_parse(std::istreambuf_iterator<char>(this), std::istreambuf_iterator<char>(), &dom)) {
    throw InputError(path_, static_cast<long long>(file_offset(dom.error_at)), dom.reason);
  }
  return doc;
}

bool DatasetFile::next_line(std::string& line, std::uint64_t& line_start) {
  line.clear();
  line_start = handed_ + static_cast<std::uint64_t>(gptr() - eback());
  int_type c = sgetc();
  if (traits_type::eq_int_type(c, traits_type::eof())) return false;
  for (; !traits_type::eq_int_type(c, traits_type::eof()); c = snextc()) {
    if (traits_type::to_char_type(c) == '\n') {
      sbumpc();
      break;
    }
    line.push_back(traits_type::to_char_type(c));
  }
  return true;
}

nlohmann::json DatasetFile::parse_line(const std::string& line, std::uint64_t line_start, long long line_no) const {
  nlohmann::json doc;
  PositionedDom dom(doc);
  if (!nlohmann::json::sax_parse(line, &dom)) {
    throw InputError(path_, static_cast<long long>(line_start + dom.error_at),
                     "line " + std::to_string(line_no) + ": " + dom.reason);
  }
  return doc;
}

}  // namespace cuprobe
