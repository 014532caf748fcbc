#include "common/safe_file_name.h"

namespace cuprobe {

std::string safe_file_name(std::string_view name, std::size_t max_bytes) {
  std::string out;
  out.reserve(name.size());
  for (char ch : name) {
    auto c = static_cast<unsigned char>(ch);
    out += (c < 0x20 || c >= 0x7f || c == '/' || c == '\\') ? '_' : ch;
  }
  if (out.empty()) out = "_";
  if (out[0] == '.' || out[0] == '-') out[0] = '_';
  if (out.size() > max_bytes) {
    std::size_t dot = out.rfind('.');
    std::string ext = dot != std::string::npos && out.size() - dot <= 16 ? out.substr(dot) : "";
    out = out.substr(0, max_bytes - ext.size()) + ext;
  }
  return out;
}

}  // namespace cuprobe
