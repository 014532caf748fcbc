#include "load/jsonl_lines.h"

#include <cmath>

#include "load/dataset_file.h"

namespace cuprobe {

void for_each_jsonl_object(const std::string& path,
                           const std::function<void(const nlohmann::json& object, long long line)>& each) {
  DatasetFile in(path);  // bounded, and JSON errors by byte, as every dataset
  std::string text;
  std::uint64_t line_start = 0;
  long long line = 0;
  while (in.next_line(text, line_start)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json doc = in.parse_line(text, line_start, line);
    if (!doc.is_object()) throw jsonl_line_error(path, line, "not a JSON object");
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
