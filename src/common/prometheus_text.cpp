#include "common/prometheus_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "common/error.h"

namespace cuprobe {
namespace {

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

class LineReader {
 public:
  LineReader(std::string_view line, const std::string& source, std::size_t number)
      : s_(line), source_(source), number_(number) {}

  [[noreturn]] void fail(const std::string& reason) const {
    throw Error(source_ + ": line " + std::to_string(number_) + ": " + reason);
  }
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[pos_]; }
  void skip_blanks() {
    while (!at_end() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  std::string name(bool allow_colon) {
    std::size_t b = pos_;
    if (at_end() || !name_start(s_[pos_]) || (!allow_colon && s_[pos_] == ':')) fail("expected a metric or label name");
    while (!at_end() && name_char(s_[pos_]) && (allow_colon || s_[pos_] != ':')) ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }
  void expect(char c, const char* what) {
    if (peek() != c) fail(std::string("expected ") + what);
    ++pos_;
  }
  std::string quoted() {
    expect('"', "'\"' to open a label value");
    std::string out;
    while (!at_end() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c == '\\') {
        if (at_end()) break;
        char e = s_[pos_++];
        out += e == 'n' ? '\n' : e;
      } else {
        out += c;
      }
    }
    if (at_end()) fail("unterminated label value");
    ++pos_;
    return out;
  }
  std::string_view word() {
    std::size_t b = pos_;
    while (!at_end() && s_[pos_] != ' ' && s_[pos_] != '\t') ++pos_;
    return s_.substr(b, pos_ - b);
  }
  std::string_view rest() const { return s_.substr(std::min(pos_, s_.size())); }

 private:
  std::string_view s_;
  const std::string& source_;
  std::size_t number_;
  std::size_t pos_ = 0;
};

std::optional<double> parse_value(std::string_view w) {
  if (w == "+Inf" || w == "Inf") return HUGE_VAL;
  if (w == "-Inf") return -HUGE_VAL;
  if (w == "NaN") return NAN;
  if (w.empty()) return std::nullopt;
  std::string text(w);
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

std::string unescape_help(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      ++i;
      out += s[i] == 'n' ? '\n' : s[i];
    } else {
      out += s[i];
    }
  }
  return out;
}

void read_comment(LineReader& r, PrometheusPage& page) {
  r.expect('#', "'#'");
  r.skip_blanks();
  std::string_view keyword = r.word();
  if (keyword != "HELP" && keyword != "TYPE") return;  // other comments, "# EOF", "# UNIT"
  r.skip_blanks();
  std::string family = r.name(true);
  r.skip_blanks();
  if (keyword == "HELP") {
    page.help[family] = unescape_help(r.rest());
    return;
  }
  std::string type(r.word());
  if (type.empty()) r.fail("TYPE of " + family + " has no type");
  if (!page.types.emplace(family, type).second) r.fail("a second TYPE line for " + family);
}

PrometheusSample read_sample(LineReader& r) {
  PrometheusSample s;
  s.name = r.name(true);
  r.skip_blanks();
  if (r.peek() == '{') {
    r.expect('{', "'{'");
    for (;;) {
      r.skip_blanks();
      if (r.peek() == '}') break;
      std::string key = r.name(false);
      r.skip_blanks();
      r.expect('=', "'=' after a label name");
      r.skip_blanks();
      s.labels.emplace_back(std::move(key), r.quoted());
      r.skip_blanks();
      if (r.peek() != ',') break;
      r.expect(',', "','");
    }
    r.skip_blanks();
    r.expect('}', "'}' or ',' after a label");
  }
  r.skip_blanks();
  std::string_view value_text = r.word();
  auto value = parse_value(value_text);
  if (!value) r.fail("'" + std::string(value_text) + "' is not a sample value");
  s.value = *value;
  r.skip_blanks();
  std::string_view ts = r.word();
  if (!ts.empty()) {
    std::int64_t t = 0;
    auto [end, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), t);
    if (ec != std::errc() || end != ts.data() + ts.size()) {
      // OpenMetrics writes timestamps in seconds, possibly fractional.
      auto seconds = parse_value(ts);
      if (!seconds || !std::isfinite(*seconds)) r.fail("'" + std::string(ts) + "' is not a timestamp");
      t = static_cast<std::int64_t>(std::llround(*seconds * 1000));
    }
    s.timestamp_ms = t;
    r.skip_blanks();
    if (!r.at_end()) r.fail("unexpected text after the timestamp");
  }
  return s;
}

}  // namespace

const std::string* PrometheusSample::label(std::string_view key) const {
  for (const auto& [k, v] : labels) {
    if (k == key) return &v;
  }
  return nullptr;
}

namespace {

// strict: the first bad line throws; otherwise each bad line is listed in page.errors.
PrometheusPage read_lines(std::string_view text, const std::string& source, bool strict) {
  PrometheusPage page;
  const std::string none;
  const std::string& where = strict ? source : none;  // tolerant errors carry no source: "line N: reason"
  std::size_t number = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LineReader r(line, where, number);
    try {
      r.skip_blanks();
      if (r.at_end()) continue;
      if (r.peek() == '#') {
        read_comment(r, page);
      } else {
        page.samples.push_back(read_sample(r));
      }
    } catch (const Error& e) {
      if (strict) throw;
      std::string why = e.what();
      page.errors.push_back(why.rfind(": ", 0) == 0 ? why.substr(2) : why);  // "line N: reason"
    }
  }
  return page;
}

}  // namespace

PrometheusPage parse_prometheus_text(std::string_view text, const std::string& source) {
  return read_lines(text, source, true);
}

PrometheusPage read_prometheus_text(std::string_view text) { return read_lines(text, {}, false); }

std::pair<std::string, std::string> prometheus_family(const PrometheusPage& page, const std::string& name) {
  if (auto it = page.types.find(name); it != page.types.end()) return {name, it->second};
  for (std::string_view suffix : {"_bucket", "_sum", "_count", "_total", "_created"}) {
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      std::string base = name.substr(0, name.size() - suffix.size());
      if (auto it = page.types.find(base); it != page.types.end()) return {base, it->second};
    }
  }
  return {name, "untyped"};
}

std::string prometheus_labels_text(const std::vector<std::pair<std::string, std::string>>& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (const auto& [k, v] : labels) {
    if (out.size() > 1) out += ',';
    out += k + "=\"" + escape_prometheus_label(v) + "\"";
  }
  return out + "}";
}

std::string escape_prometheus_label(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace cuprobe
