#include "load/prometheus_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace cuprobe {
namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool name_char(char c) { return name_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

void skip_blanks(std::string_view line, std::size_t& i) {
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
}

std::string read_name(std::string_view line, std::size_t& i) {
  std::size_t start = i;
  if (i < line.size() && name_start(line[i])) {
    ++i;
    while (i < line.size() && name_char(line[i])) ++i;
  }
  return std::string(line.substr(start, i - start));
}

bool read_value(std::string_view text, double& out) {
  std::string s(text);
  if (s == "+Inf" || s == "Inf") {
    out = std::numeric_limits<double>::infinity();
  } else if (s == "-Inf") {
    out = -std::numeric_limits<double>::infinity();
  } else if (s == "NaN") {
    out = std::numeric_limits<double>::quiet_NaN();
  } else {
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') return false;
  }
  return true;
}

// Parses {name="value",...}; i is at '{'. Returns "" or why not.
std::string read_labels(std::string_view line, std::size_t& i, PromSample& sample) {
  ++i;
  for (;;) {
    skip_blanks(line, i);
    if (i < line.size() && line[i] == '}') {
      ++i;
      return "";
    }
    std::string name = read_name(line, i);
    if (name.empty()) return "a label name was expected";
    skip_blanks(line, i);
    if (i >= line.size() || line[i] != '=') return "'=' was expected after label " + name;
    ++i;
    skip_blanks(line, i);
    if (i >= line.size() || line[i] != '"') return "a quoted value was expected for label " + name;
    ++i;
    std::string value;
    for (;;) {
      if (i >= line.size()) return "the value of label " + name + " is not closed";
      char c = line[i++];
      if (c == '"') break;
      if (c == '\\') {
        if (i >= line.size()) return "the value of label " + name + " ends in an escape";
        char e = line[i++];
        value += e == 'n' ? '\n' : e;  // \\ and \" stand for themselves
      } else {
        value += c;
      }
    }
    sample.labels.emplace_back(std::move(name), std::move(value));
    skip_blanks(line, i);
    if (i < line.size() && line[i] == ',')
      ++i;
    else if (i >= line.size() || line[i] != '}')
      return "',' or '}' was expected after a label";
  }
}

std::string parse_sample(std::string_view line, PromSample& sample) {
  std::size_t i = 0;
  sample.name = read_name(line, i);
  if (sample.name.empty()) return "a metric name was expected";
  skip_blanks(line, i);
  if (i < line.size() && line[i] == '{') {
    std::string why = read_labels(line, i, sample);
    if (!why.empty()) return why;
  }
  skip_blanks(line, i);
  std::size_t start = i;
  while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
  if (!read_value(line.substr(start, i - start), sample.value)) return "the value is not a number";
  skip_blanks(line, i);
  if (i < line.size()) {  // an optional timestamp (ms), nothing after it
    start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    double ts;
    if (!read_value(line.substr(start, i - start), ts)) return "the timestamp is not a number";
    skip_blanks(line, i);
    if (i < line.size()) return "unexpected text after the timestamp";
  }
  return "";
}

}  // namespace

PromScrape parse_prometheus_text(std::string_view text) {
  PromScrape out;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t i = 0;
    skip_blanks(line, i);
    line.remove_prefix(i);
    if (line.empty()) continue;
    if (line[0] == '#') {
      // "# TYPE name type" declares a family; other comments (HELP, free text) are ignored.
      std::size_t j = 1;
      skip_blanks(line, j);
      if (line.substr(j, 5) != "TYPE ") continue;
      j += 5;
      skip_blanks(line, j);
      std::string name = read_name(line, j);
      skip_blanks(line, j);
      std::string type(line.substr(j));
      while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.pop_back();
      if (name.empty() || type.empty()) {
        out.errors.push_back("line " + std::to_string(line_no) + ": a TYPE comment without a name and a type");
        continue;
      }
      out.types[name] = type;
      continue;
    }
    PromSample sample;
    std::string why = parse_sample(line, sample);
    if (!why.empty()) {
      out.errors.push_back("line " + std::to_string(line_no) + ": " + why);
      continue;
    }
    out.samples.push_back(std::move(sample));
  }
  return out;
}

std::pair<std::string, std::string> prom_family(const PromScrape& scrape, const std::string& name) {
  if (auto it = scrape.types.find(name); it != scrape.types.end()) return {name, it->second};
  for (const char* suffix : {"_bucket", "_sum", "_count", "_total", "_created"}) {
    std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      std::string base = name.substr(0, name.size() - s.size());
      if (auto it = scrape.types.find(base); it != scrape.types.end()) return {base, it->second};
    }
  }
  return {name, "untyped"};
}

std::string prom_labels_text(const std::vector<std::pair<std::string, std::string>>& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (const auto& [k, v] : labels) {
    if (out.size() > 1) out += ',';
    out += k + "=\"";
    for (char c : v) {
      if (c == '\\' || c == '"') out += '\\';
      out += c == '\n' ? std::string("\\n") : std::string(1, c);
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace cuprobe
