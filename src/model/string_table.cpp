#include "model/string_table.h"

namespace cuprobe {

StringTable::StringTable() {
  index_.emplace_back();
  ids_.emplace(std::string_view{}, kNoString);
}

StringTable::StringTable(StringTable&&) noexcept = default;
StringTable& StringTable::operator=(StringTable&&) noexcept = default;

StringId StringTable::intern(std::string_view s) {
  if (auto it = ids_.find(s); it != ids_.end()) return it->second;
  const std::string& stored = storage_.emplace_back(s);
  auto id = static_cast<StringId>(index_.size());
  index_.emplace_back(stored);
  ids_.emplace(std::string_view(stored), id);
  return id;
}

std::optional<StringId> StringTable::find(std::string_view s) const {
  if (auto it = ids_.find(s); it != ids_.end()) return it->second;
  return std::nullopt;
}

}  // namespace cuprobe
