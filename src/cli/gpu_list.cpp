#include "cli/gpu_list.h"

#include "common/error.h"

namespace cuprobe {

std::vector<int> parse_gpu_list(const std::string& text, const std::string& option) {
  if (text == "all") return {};
  std::vector<int> gpus;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string::npos) {
      throw Error("invalid " + option + " '" + text + "' (use all, or indices like 0,1)", kExitUsage);
    }
    gpus.push_back(std::stoi(item));
    pos = comma + 1;
  }
  return gpus;
}

}  // namespace cuprobe
