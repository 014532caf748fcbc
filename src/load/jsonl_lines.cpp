#include "load/jsonl_lines.h"

#include <cmath>
#include <fstream>

namespace cuprobe {

void for_each_jsonl_object(const std::string& path,
                           const std::function<void(const nlohmann::json& object, long long line)>& each) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "cannot open the dataset");
  std::string text;
  long long line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) throw jsonl_line_error(path, line, "not a JSON object");
    each(doc, line);
  }
}

Error jsonl_line_error(const std::string& path, long long line, const std::string& why) {
  return InputError(path, "line " + std::to_string(line) + ": " + why);
}

std::int64_t jsonl_int(const nlohmann::json& object, const char* key, std::int64_t fallback, std::int64_t minimum,
                       const std::string& path, long long line) {
  auto it = object.find(key);
  if (it == object.end()) return fallback;
  // Integers written as 12.0 (pandas) are integers too.
  bool integral = it->is_number_integer() ||
                  (it->is_number_float() && std::isfinite(it->get<double>()) &&
                   it->get<double>() == std::floor(it->get<double>()) && std::fabs(it->get<double>()) < 9e15);
  if (!integral || it->get<double>() < static_cast<double>(minimum)) {
    throw jsonl_line_error(path, line,
                           std::string("\"") + key + "\" must be an integer of at least " + std::to_string(minimum));
  }
  return it->is_number_integer() ? it->get<std::int64_t>() : static_cast<std::int64_t>(it->get<double>());
}

}  // namespace cuprobe
