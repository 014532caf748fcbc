#include "import/kineto_json/json_cursor.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/error.h"

namespace cuprobe {
namespace {

constexpr std::size_t kMaxWindow = std::size_t{1} << 30;  // one token may not exceed this
constexpr int kMaxDepth = 512;

inline bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

constexpr std::array<bool, 256> kNumberChars = [] {
  std::array<bool, 256> t{};
  for (char c : std::string_view("0123456789-+.eE")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();
inline bool is_number_char(char c) { return kNumberChars[static_cast<unsigned char>(c)]; }

// Index of the first byte in [p, p+n) that is not JSON whitespace, or n.
inline std::size_t count_whitespace(const char* p, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                tab = _mm_set1_epi8('\t');
  for (; i + 16 <= n; i += 16) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, space), _mm_cmpeq_epi8(c, nl)),
                              _mm_or_si128(_mm_cmpeq_epi8(c, cr), _mm_cmpeq_epi8(c, tab)));
    unsigned mask = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xFFFFu;
    if (mask) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  while (i < n && is_space(p[i])) ++i;
  return i;
}

// Index of the first '"', '{', '}', '[' or ']' in [p, p+n), or n.
inline std::size_t find_structural(const char* p, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), open_brace = _mm_set1_epi8('{'), close_brace = _mm_set1_epi8('}'),
                open_bracket = _mm_set1_epi8('['), close_bracket = _mm_set1_epi8(']');
  for (; i + 16 <= n; i += 16) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, quote), _mm_cmpeq_epi8(c, open_brace)),
                     _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, close_brace), _mm_cmpeq_epi8(c, open_bracket)),
                                  _mm_cmpeq_epi8(c, close_bracket)));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < n; ++i) {
    char c = p[i];
    if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']') return i;
  }
  return n;
}

// Index of the first '"', '\\' or control character in [p, p+n), or n.
inline std::size_t find_string_special(const char* p, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), limit = _mm_set1_epi8(0x20);
  for (; i + 16 <= n; i += 16) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i printable = _mm_cmpeq_epi8(_mm_max_epu8(c, limit), c);  // c >= 0x20, unsigned
    __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, quote), _mm_cmpeq_epi8(c, backslash)),
                                   _mm_andnot_si128(printable, _mm_set1_epi8(-1)));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
    if (mask) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    if (c == '"' || c == '\\' || c < 0x20) return i;
  }
  return n;
}

// Where the quotes, backslashes, '{' or '[', and '}' or ']' are among 64 bytes (bit i: byte i).
struct BlockMasks {
  std::uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

inline BlockMasks block_masks(const char* p) {
  BlockMasks m;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), lower = _mm_set1_epi8(0x20),
                open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  auto bits = [](__m128i hits, int k) {
    return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(hits))) << (16 * k);
  };
  for (int k = 0; k < 4; ++k) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    __m128i folded = _mm_or_si128(c, lower);  // '[' -> '{' and ']' -> '}'; nothing else becomes either
    m.quote |= bits(_mm_cmpeq_epi8(c, quote), k);
    m.backslash |= bits(_mm_cmpeq_epi8(c, backslash), k);
    m.open |= bits(_mm_cmpeq_epi8(folded, open), k);
    m.close |= bits(_mm_cmpeq_epi8(folded, close), k);
  }
#else
  for (int i = 0; i < 64; ++i) {
    std::uint64_t bit = std::uint64_t{1} << i;
    if (p[i] == '"') m.quote |= bit;
    if (p[i] == '\\') m.backslash |= bit;
    if (p[i] == '{' || p[i] == '[') m.open |= bit;
    if (p[i] == '}' || p[i] == ']') m.close |= bit;
  }
#endif
  return m;
}

// Bit i: the parity of bits 0..i (inside a string from its opening quote up to its closing one).
inline std::uint64_t prefix_xor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// Index of the first byte in [p, p+n) that cannot be part of a number, or n.
inline std::size_t count_number_chars(const char* p, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9), minus = _mm_set1_epi8('-'),
                plus = _mm_set1_epi8('+'), dot = _mm_set1_epi8('.'), lower = _mm_set1_epi8(0x20),
                e = _mm_set1_epi8('e');
  for (; i + 16 <= n; i += 16) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i d = _mm_sub_epi8(c, zero);
    __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);  // c - '0' <= 9, unsigned
    __m128i other = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, minus), _mm_cmpeq_epi8(c, plus)),
                                 _mm_or_si128(_mm_cmpeq_epi8(c, dot), _mm_cmpeq_epi8(_mm_or_si128(c, lower), e)));
    unsigned mask = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(digit, other))) & 0xFFFFu;
    if (mask) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  while (i < n && is_number_char(p[i])) ++i;
  return i;
}

// Index of the first '"' or '\\' in [p, p+n), or n.
inline std::size_t find_quote_or_backslash(const char* p, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  for (; i + 16 <= n; i += 16) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    unsigned mask =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(c, quote), _mm_cmpeq_epi8(c, backslash))));
    if (mask) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < n; ++i) {
    if (p[i] == '"' || p[i] == '\\') return i;
  }
  return n;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

JsonCursor::JsonCursor(ByteSource& source, std::string file_name, std::size_t window_bytes, std::uint64_t start_offset)
    : source_(source), file_(std::move(file_name)), buf_(window_bytes), base_offset_(start_offset) {}

void JsonCursor::discard_until(std::uint64_t target) {
  while (offset() < target) {
    if (pos_ < end_) {
      pos_ += static_cast<std::size_t>(std::min<std::uint64_t>(end_ - pos_, target - offset()));
      continue;
    }
    std::size_t keep = pos_;
    if (!refill(keep)) fail_eof("");
  }
}

void JsonCursor::fail(const std::string& reason) const { fail_at(offset(), reason); }

void JsonCursor::fail_eof(const char* where) const {
  std::string reason = "unexpected end of file (truncated trace?)";
  if (*where) reason = reason + " " + where;
  fail(reason);
}

void JsonCursor::fail_at(std::uint64_t at, const std::string& reason) const {
  throw InputError(file_, static_cast<long long>(at), reason);
}

bool JsonCursor::refill(std::size_t& keep_from) {
  if (eof_) return false;
  std::size_t from = pinned_ ? std::min(keep_from, pin_) : keep_from;
  std::size_t kept = end_ - from;
  if (from > 0) {
    std::memmove(buf_.data(), buf_.data() + from, kept);
    base_offset_ += from;
    pos_ -= from;
    keep_from -= from;
    pin_ -= pinned_ ? from : 0;
  }
  end_ = kept;
  if (end_ == buf_.size()) {
    if (buf_.size() >= kMaxWindow) fail("a single JSON token is larger than 1 GiB");
    buf_.resize(buf_.size() * 2);
  }
  std::size_t got = 0;
  try {
    got = source_.read(buf_.data() + end_, buf_.size() - end_);
  } catch (...) {
    source_failed_ = true;
    throw;
  }
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += got;
  return true;
}

void JsonCursor::ensure_available(std::size_t n) {
  while (end_ - pos_ < n) {
    std::size_t keep = pos_;
    if (!refill(keep)) return;
  }
}

void JsonCursor::skip_whitespace() {
  for (;;) {
    pos_ += count_whitespace(buf_.data() + pos_, end_ - pos_);
    if (pos_ < end_) return;
    std::size_t keep = pos_;
    if (!refill(keep)) return;
  }
}

bool JsonCursor::at_end() {
  skip_whitespace();
  return pos_ >= end_;
}

char JsonCursor::peek_slow() {
  skip_whitespace();
  return pos_ < end_ ? buf_[pos_] : '\0';
}

void JsonCursor::fail_expected(char c, char got) const {
  if (got == '\0') fail_eof((std::string("where '") + c + "' was expected").c_str());
  fail(std::string("invalid JSON: expected '") + c + "', found '" + got + "'");
}

std::string_view JsonCursor::string() {
  char c = peek();
  if (c != '"') {
    if (c == '\0') fail_eof("where a string was expected");
    fail(std::string("invalid JSON: expected a string, found '") + c + "'");
  }
  std::size_t start = ++pos_;
  for (;;) {
    std::size_t i = pos_ + find_string_special(buf_.data() + pos_, end_ - pos_);
    if (i < end_) {
      char special = buf_[i];
      if (special == '"') {
        pos_ = i + 1;
        return std::string_view(buf_.data() + start, i - start);
      }
      if (special == '\\') return string_slow(start);
      fail_at(base_offset_ + i, "invalid JSON: control character in string");
    }
    pos_ = end_;
    std::size_t keep = start;
    if (!refill(keep)) fail_eof("inside a string");
    start = keep;
  }
}

std::string_view JsonCursor::string_slow(std::size_t start) {
  scratch_.clear();
  pos_ = start;
  for (;;) {
    if (pos_ >= end_) {
      std::size_t keep = pos_;
      if (!refill(keep)) fail_eof("inside a string");
    }
    char c = buf_[pos_];
    if (c == '"') {
      ++pos_;
      return scratch_;
    }
    if (static_cast<unsigned char>(c) < 0x20) fail("invalid JSON: control character in string");
    if (c != '\\') {
      scratch_.push_back(c);
      ++pos_;
      continue;
    }
    ensure_available(12);  // the longest escape: \uXXXX\uXXXX
    if (pos_ + 1 >= end_) fail_eof("inside a string");
    char e = buf_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case '"':
        scratch_.push_back('"');
        break;
      case '\\':
        scratch_.push_back('\\');
        break;
      case '/':
        scratch_.push_back('/');
        break;
      case 'b':
        scratch_.push_back('\b');
        break;
      case 'f':
        scratch_.push_back('\f');
        break;
      case 'n':
        scratch_.push_back('\n');
        break;
      case 'r':
        scratch_.push_back('\r');
        break;
      case 't':
        scratch_.push_back('\t');
        break;
      case 'u': {
        auto read_hex4 = [&](std::uint32_t& out) {
          if (pos_ + 4 > end_) return false;
          out = 0;
          for (int i = 0; i < 4; ++i) {
            int h = hex_value(buf_[pos_ + static_cast<std::size_t>(i)]);
            if (h < 0) return false;
            out = out * 16 + static_cast<std::uint32_t>(h);
          }
          pos_ += 4;
          return true;
        };
        std::uint32_t cp = 0;
        if (!read_hex4(cp)) fail("invalid JSON: bad \\u escape");
        if (cp >= 0xD800 && cp < 0xDC00) {
          std::uint32_t low = 0;
          if (pos_ + 2 <= end_ && buf_[pos_] == '\\' && buf_[pos_ + 1] == 'u') {
            pos_ += 2;
            if (!read_hex4(low) || low < 0xDC00 || low > 0xDFFF) fail("invalid JSON: bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else {
            cp = 0xFFFD;  // lone high surrogate
          }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          cp = 0xFFFD;
        }
        append_utf8(scratch_, cp);
        break;
      }
      default:
        fail_at(offset() - 1, std::string("invalid JSON: bad escape '\\") + e + "'");
    }
  }
}

std::string_view JsonCursor::number() {
  char c = peek();
  if (!is_number_char(c) || c == '+' || c == 'e' || c == 'E' || c == '.') {
    if (c == '\0') fail_eof("where a number was expected");
    fail(std::string("expected a number, found '") + c + "'");
  }
  // The token must end inside the window: refill keeps it whole (moving it to
  // the front), and a file that ends inside it is truncated, whatever the
  // digits read so far would mean.
  std::size_t start = pos_;
  for (;;) {
    pos_ += count_number_chars(buf_.data() + pos_, end_ - pos_);
    if (pos_ < end_) break;
    std::size_t keep = start;
    bool more = refill(keep);
    start = keep;
    if (!more) fail_eof("inside a number");
  }
  return std::string_view(buf_.data() + start, pos_ - start);
}

void JsonCursor::skip_string() {
  // pos_ is just past the opening quote. A plain string ends at the first quote (found inline:
  // for the short strings of a trace a memchr call costs more than the scan).
  std::size_t i = pos_ + find_quote_or_backslash(buf_.data() + pos_, end_ - pos_);
  if (i < end_ && buf_[i] == '"') {
    pos_ = i + 1;
    return;
  }
  for (;;) {
    const char* base = buf_.data();
    const void* q = std::memchr(base + pos_, '"', end_ - pos_);
    if (q) {
      std::size_t close = static_cast<std::size_t>(static_cast<const char*>(q) - base);
      std::size_t backslashes = 0;
      while (close - backslashes > pos_ && base[close - 1 - backslashes] == '\\') ++backslashes;
      pos_ = close + 1;
      if (backslashes % 2 == 0) return;
      continue;  // an escaped quote
    }
    // Keep a trailing backslash run so an escape split across windows is seen whole.
    std::size_t keep = end_;
    while (keep > pos_ && buf_[keep - 1] == '\\') --keep;
    pos_ = keep;
    if (!refill(keep)) fail_eof("inside a string");
  }
}

void JsonCursor::skip_value() {
  char c = peek();
  switch (c) {
    case '\0':
      fail_eof("where a value was expected");
    case '"':
      ++pos_;
      skip_string();
      return;
    case '{':
    case '[':
      ++pos_;
      skip_to_close(1);
      return;
    case 't':
    case 'f':
    case 'n': {
      std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
      ensure_available(word.size());
      if (end_ - pos_ < word.size()) fail_eof("inside a literal");
      if (std::string_view(buf_.data() + pos_, word.size()) != word) {
        fail("invalid JSON: bad literal");
      }
      pos_ += word.size();
      return;
    }
    default:
      if (is_number_char(c)) {
        number();
        return;
      }
      fail(std::string("invalid JSON: unexpected '") + c + "'");
  }
}

void JsonCursor::skip_rest_of_object() { skip_to_close(1); }

std::optional<JsonCursor::RawValue> JsonCursor::raw_value(std::size_t context) {
  peek();
  pin_ = pos_;
  pinned_ = true;
  try {
    skip_value();
    ensure_available(context);
  } catch (const InputError&) {
    pinned_ = false;
    if (source_failed_) throw;
    pos_ = pin_;
    return std::nullopt;
  }
  pinned_ = false;
  std::size_t size = pos_ - pin_;
  std::size_t tail = std::min(context, end_ - pos_);
  return RawValue{std::string_view(buf_.data() + pin_, size + tail), size, base_offset_ + pin_};
}

void JsonCursor::skip_to_close(int depth) {
  // 64 bytes at a time while the window holds them (most of what a trace skips): brackets
  // outside strings counted from bit masks, strings found by a prefix XOR of their quotes.
  // A block with a backslash (an escape, or invalid JSON), or that could nest too deeply, is
  // left to the loop below, which sees from there on what it would have seen from the start
  // (the byte before the block is no backslash: every block passed here had none).
  bool in_string = false;
  while (end_ - pos_ >= 64) {
    BlockMasks m = block_masks(buf_.data() + pos_);
    if (m.backslash) break;
    std::uint64_t inside = prefix_xor(m.quote) ^ (in_string ? ~std::uint64_t{0} : 0);
    std::uint64_t open = m.open & ~inside, close = m.close & ~inside;
    if (open && depth > kMaxDepth - 64) break;  // could pass the limit here (no popcount: a libgcc call)
    for (std::uint64_t brackets = open | close; brackets; brackets &= brackets - 1) {
      std::uint64_t bit = brackets & (~brackets + 1);
      if (open & bit) {
        ++depth;
      } else if (--depth == 0) {
        pos_ += static_cast<std::size_t>(std::countr_zero(bit)) + 1;
        return;
      }
    }
    in_string = (inside >> 63) != 0;
    pos_ += 64;
  }
  if (in_string) skip_string();
  for (;;) {
    std::size_t i = pos_ + find_structural(buf_.data() + pos_, end_ - pos_);
    if (i == end_) {
      pos_ = end_;
      std::size_t keep = pos_;
      if (!refill(keep)) fail_eof("inside an object or array");
      continue;
    }
    pos_ = i + 1;
    switch (buf_[i]) {
      case '"': {
        // Most strings skipped are short and plain: found here, without skip_string's call.
        std::size_t close = pos_ + find_quote_or_backslash(buf_.data() + pos_, end_ - pos_);
        if (close < end_ && buf_[close] == '"')
          pos_ = close + 1;
        else
          skip_string();
        break;
      }
      case '{':
      case '[':
        if (++depth > kMaxDepth) fail("JSON nested too deeply");
        break;
      default:  // '}' or ']'
        if (--depth == 0) return;
    }
  }
}

bool JsonCursor::next_key(std::string_view& key, bool& first) {
  if (consume_if('}')) return false;
  if (!first) expect(',');
  first = false;
  key = string();
  // The view lives in the window; a refill while looking for ':' would move it.
  if (pos_ < end_ && buf_[pos_] == ':') {
    ++pos_;
    return true;
  }
  key_scratch_.assign(key);
  key = key_scratch_;
  expect(':');
  return true;
}

bool JsonCursor::next_element(bool& first) {
  if (consume_if(']')) return false;
  if (!first) expect(',');
  first = false;
  return true;
}

}  // namespace cuprobe
