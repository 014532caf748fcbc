// Interned strings: kernel and range names repeat millions of times.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cuprobe {

using StringId = std::uint32_t;
inline constexpr StringId kNoString = 0;  // the empty string

class StringTable {
 public:
  StringTable();
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;
  StringTable(StringTable&&) noexcept;
  StringTable& operator=(StringTable&&) noexcept;

  StringId intern(std::string_view s);
  std::optional<StringId> find(std::string_view s) const;
  std::string_view view(StringId id) const { return index_.at(id); }
  std::size_t size() const { return index_.size(); }

 private:
  std::deque<std::string> storage_;  // stable addresses for the views
  std::deque<std::string_view> index_;
  std::unordered_map<std::string_view, StringId> ids_;
};

}  // namespace cuprobe
