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
  consumed_ += static_cast<std::uint64_t>(egptr() - eback());
  ssize_t n;
  do {
    n = ::read(fd_, buffer_.data(), buffer_.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    throw InputError(path_, static_cast<long long>(consumed_), "read failed: " + errno_text(errno));
  }
  if (consumed_ + static_cast<std::uint64_t>(n) > max_bytes_) throw InputError(path_, over_the_limit(max_bytes_));
  setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
  return n == 0 ? traits_type::eof() : traits_type::to_int_type(*gptr());
}

nlohmann::json DatasetFile::parse_json() {
  nlohmann::json doc;
  PositionedDom dom(doc);
  if (!nlohmann::json::sax_parse(std::istreambuf_iterator<char>(this), std::istreambuf_iterator<char>(), &dom)) {
    throw InputError(path_, static_cast<long long>(dom.error_at), dom.reason);
  }
  return doc;
}

bool DatasetFile::next_line(std::string& line, std::uint64_t& line_start) {
  line.clear();
  line_start = consumed_ + static_cast<std::uint64_t>(gptr() - eback());
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
