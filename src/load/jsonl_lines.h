// Reading a JSONL dataset: one JSON object per line, blank lines skipped, and
// one error shape for a bad line ("FILE: line N: REASON", exit 1).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "common/error.h"

namespace cuprobe {

// Calls `each` with every line's object and its number (from 1). Throws
// InputError when the file cannot be opened or a line is not a JSON object;
// what `each` throws passes through.
void for_each_jsonl_object(const std::string& path,
                           const std::function<void(const nlohmann::json& object, long long line)>& each);

// The error for line `line` of `path`.
Error jsonl_line_error(const std::string& path, long long line, const std::string& why);

// The integer field `key` of `object` (line `line` of `path`), or `fallback`
// when it is absent; throws jsonl_line_error when it is not an integer >= minimum.
std::int64_t jsonl_int(const nlohmann::json& object, const char* key, std::int64_t fallback, std::int64_t minimum,
                       const std::string& path, long long line);

}  // namespace cuprobe
