#include "import/kineto_json/simd_window.h"

#include <cstring>

namespace cuprobe {
namespace {

namespace od = simdjson::ondemand;

constexpr int kMaxDepth = 512;  // JsonCursor's

inline bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
inline bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

SimdWindow::SimdWindow(std::size_t max_bytes)
    : max_bytes_(max_bytes), buf_(new char[max_bytes + 2 + simdjson::SIMDJSON_PADDING]) {}

std::size_t SimdWindow::cut(std::string_view text) {
  std::size_t from = text.size();
  while (from > 0) {
    std::size_t open = text.rfind('{', from - 1);
    if (open == std::string_view::npos || open == 0) return 0;
    std::size_t j = open;
    while (j > 0 && is_space(text[j - 1])) --j;
    if (j > 0 && text[j - 1] == ',') {
      --j;
      while (j > 0 && is_space(text[j - 1])) --j;
      if (j > 0 && text[j - 1] == '}') return j;
    }
    from = open;
  }
  return 0;
}

bool SimdWindow::start(std::string_view text, std::uint64_t file_offset, od::document& doc) {
  if (text.size() > max_bytes_) return false;
  buf_[0] = '[';
  std::memcpy(buf_.get() + 1, text.data(), text.size());
  buf_[text.size() + 1] = ']';
  size_ = text.size() + 2;
  std::memset(buf_.get() + size_, ' ', simdjson::SIMDJSON_PADDING);
  offset_ = file_offset;
  return parser_.iterate(buf_.get(), size_, max_bytes_ + 2 + simdjson::SIMDJSON_PADDING).get(doc) == simdjson::SUCCESS;
}

void SimdPull::expect(char c) {
  if (!has_value_ || token_[0] != c || depth_ >= kMaxFrames) fallback();
  Frame& f = frames_[depth_];
  f.started = false;
  if (c == '{') {
    od::object object;
    if (value_.get_object().get(object) || object.begin().get(f.fields)) fallback();
    f.object = true;
  } else if (c == '[') {
    od::array array;
    if (value_.get_array().get(array) || array.begin().get(f.elements)) fallback();
    f.object = false;
  } else {
    fallback();
  }
  ++depth_;
  has_value_ = false;
}

bool SimdPull::next_key(std::string_view& key, bool& first) {
  if (depth_ == 0 || !frames_[depth_ - 1].object) fallback();
  Frame& f = frames_[depth_ - 1];
  if (f.started) ++f.fields;
  f.started = true;
  first = false;
  has_value_ = false;
  if (!(f.fields != f.fields)) {  // the iterator's != asks only whether it is still open
    --depth_;
    return false;
  }
  od::field field;
  if ((*f.fields).get(field)) fallback();
  // The key as written (simdjson checked it is closed); one with an escape, decoded.
  const char* p = field.key().raw();
  std::size_t n = 0;
  while (p[n] != '"' && p[n] != '\\') ++n;
  if (p[n] == '"') {
    key = std::string_view(p, n);
  } else if (field.unescaped_key().get(key)) {
    fallback();
  }
  set_value(field.value());
  return true;
}

bool SimdPull::next_element(bool& first) {
  if (depth_ == 0 || frames_[depth_ - 1].object) fallback();
  Frame& f = frames_[depth_ - 1];
  if (f.started) ++f.elements;
  f.started = true;
  first = false;
  has_value_ = false;
  if (!(f.elements != f.elements)) {
    --depth_;
    return false;
  }
  od::value element;
  if ((*f.elements).get(element)) fallback();
  set_value(element);
  return true;
}

std::string_view SimdPull::string() {
  if (!has_value_ || token_[0] != '"') fallback();
  has_value_ = false;
  // The token is the string and the whitespace up to the next one: its last quote closes it.
  std::string_view t = token_;
  while (t.size() > 1 && is_space(t.back())) t.remove_suffix(1);
  if (t.size() < 2 || t.back() != '"') fallback();
  std::string_view inner = t.substr(1, t.size() - 2);
  if (std::memchr(inner.data(), '\\', inner.size()) == nullptr) return inner;  // left to simdjson to step over
  // Escapes, decoded by simdjson: where it refuses one (a lone surrogate, which the cursor
  // reads as U+FFFD; a bad escape, which the cursor refuses too) the cursor reads the element.
  std::string_view decoded;
  if (value_.get_string().get(decoded)) fallback();
  return decoded;
}

std::string_view SimdPull::number() {
  if (!has_value_) fallback();
  char c = token_[0];
  if (c != '-' && (c < '0' || c > '9')) fallback();  // the cursor: "expected a number"
  std::size_t n = 1;
  while (n < token_.size() && is_number_char(token_[n])) ++n;
  // The cursor ends a number at the first other byte and then wants ',' or a closing bracket:
  // a token going on past its number is refused there.
  for (std::size_t i = n; i < token_.size(); ++i) {
    if (!is_space(token_[i])) fallback();
  }
  has_value_ = false;
  return token_.substr(0, n);
}

void SimdPull::check_literal(std::string_view word) const {
  std::string_view t = token_;
  while (!t.empty() && is_space(t.back())) t.remove_suffix(1);
  if (t != word) fallback();
}

void SimdPull::skip_value() {
  if (!has_value_) fallback();
  switch (token_[0]) {
    case '"':
    case '{':
    case '[':
      break;  // simdjson steps over it as the cursor does: strings closed, brackets counted
    case 't':
      check_literal("true");
      break;
    case 'f':
      check_literal("false");
      break;
    case 'n':
      check_literal("null");
      break;
    default:
      number();
      return;
  }
  has_value_ = false;
}

void SimdPull::skip_rest_of_object() {
  if (depth_ != 1 || !frames_[0].object) fallback();
  depth_ = 0;  // the window's array iterator steps over the rest
  has_value_ = false;
}

std::size_t SimdPull::container_size() const {
  const char* begin = token_.data();
  const char* end = window_.end();
  int depth = 0;
  for (const char* p = begin; p < end; ++p) {
    switch (*p) {
      case '"':
        for (++p; p < end && *p != '"'; ++p) {
          if (*p == '\\') ++p;
        }
        break;
      case '{':
      case '[':
        if (++depth > kMaxDepth) fallback();
        break;
      case '}':
      case ']':
        if (--depth == 0) return static_cast<std::size_t>(p + 1 - begin);
        break;
      default:
        break;
    }
  }
  fallback();
}

bool SimdPull::odd_first_element() const {
  const char* p = token_.data() + 1;
  const char* end = window_.end();
  while (p < end && is_space(*p)) ++p;
  if (p >= end || *p == ',' || *p == ':') return true;
  if (*p != '"') return false;
  for (++p; p < end && *p != '"'; ++p) {
    if (*p == '\\') ++p;
  }
  for (++p; p < end && is_space(*p); ++p) {
  }
  return p >= end || *p == ':';
}

std::optional<JsonCursor::RawValue> SimdPull::raw_value(std::size_t context) {
  if (!has_value_) fallback();
  std::size_t size = 0;
  switch (token_[0]) {
    case '"': {
      std::size_t i = 1;
      while (i < token_.size() && token_[i] != '"') i += token_[i] == '\\' ? 2 : 1;
      if (i >= token_.size()) fallback();
      size = i + 1;
      break;
    }
    case '[': {  // stepped over by simdjson's structural index
      if (odd_first_element()) {
        size = container_size();
        break;
      }
      simdjson::ondemand::array array;
      std::string_view raw;
      if (value_.get_array().get(array) || array.raw_json().get(raw)) fallback();
      while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);
      if (raw.empty() || raw.back() != ']') fallback();
      size = raw.size();
      break;
    }
    case '{':
      size = container_size();
      break;
    case 't':
    case 'f':
    case 'n':
      skip_value();
      size = token_[0] == 'f' ? 5 : 4;
      break;
    default:
      size = number().size();
      break;
  }
  has_value_ = false;
  const char* begin = token_.data();
  std::size_t tail = std::min<std::size_t>(context, static_cast<std::size_t>(window_.end() - (begin + size)));
  return JsonCursor::RawValue{std::string_view(begin, size + tail), size, window_.file_offset(begin)};
}

}  // namespace cuprobe
