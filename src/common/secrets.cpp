#include "common/secrets.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <vector>

namespace cuprobe {
namespace {

constexpr std::size_t kShortest = 4;

struct Registry {
  std::mutex mutex;
  std::vector<std::string> values;  // longest first: a token inside a longer value is not cut in two
};

Registry& registry() {
  static Registry r;
  return r;
}

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view trimmed(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

void remember(Registry& r, std::string_view value) {
  value = trimmed(value);
  if (value.size() < kShortest) return;
  if (std::find(r.values.begin(), r.values.end(), value) != r.values.end()) return;
  r.values.emplace_back(value);
  std::stable_sort(r.values.begin(), r.values.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

}  // namespace

void add_secret(std::string_view value) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  remember(r, value);
  std::string_view v = trimmed(value);
  if (std::size_t space = v.find(' '); space != std::string_view::npos) remember(r, v.substr(space + 1));
}

bool is_secret_header(std::string_view name) {
  std::string n = lowered(trimmed(name));
  if (n == "cookie" || n == "set-cookie") return true;
  for (const char* word : {"auth", "key", "token", "secret", "password"}) {
    if (n.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string redact_secrets(std::string text) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const std::string& secret : r.values) {
    for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
      text.replace(at, secret.size(), "***");
    }
  }
  return text;
}

}  // namespace cuprobe
