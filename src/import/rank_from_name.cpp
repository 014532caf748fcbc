#include "import/rank_from_name.h"

#include <cctype>
#include <string>

namespace cuprobe {

std::optional<int> rank_from_file_name(std::string_view path) {
  std::string_view name =
      path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
  std::string lower;
  for (char c : name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  // The last match wins: "tp2_mlp_decode_rank1" is rank 1, not 2.
  std::optional<int> found;
  for (std::string_view key : {"rank", "tp"}) {
    for (std::size_t at = lower.find(key); at != std::string::npos; at = lower.find(key, at + 1)) {
      if (at > 0 && std::isalpha(static_cast<unsigned char>(lower[at - 1]))) continue;  // "stp", "frank"
      std::size_t i = at + key.size();
      if (i < lower.size() && (lower[i] == '_' || lower[i] == '-')) ++i;
      std::size_t digits = 0;
      int value = 0;
      while (i + digits < lower.size() && std::isdigit(static_cast<unsigned char>(lower[i + digits])) && digits < 6) {
        value = value * 10 + (lower[i + digits] - '0');
        ++digits;
      }
      if (digits == 0) continue;
      if (key == "rank") return value;  // explicit "rank" beats "tp"
      found = value;
    }
  }
  return found;
}

}  // namespace cuprobe
