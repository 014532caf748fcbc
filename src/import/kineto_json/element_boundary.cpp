#include "import/kineto_json/element_boundary.h"

#include <vector>

#include "import/byte_source.h"

namespace cuprobe {

std::optional<std::uint64_t> find_element_boundary(const std::string& path, std::uint64_t from) {
  constexpr std::size_t kSearch = 4 << 20;
  auto source = open_plain_file_from(path, from);
  std::vector<char> buf(kSearch);
  std::size_t len = 0;
  while (len < buf.size()) {
    std::size_t got = source->read(buf.data() + len, buf.size() - len);
    if (got == 0) break;
    len += got;
  }
  auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  for (std::size_t i = 0; i < len; ++i) {
    if (buf[i] != '}') continue;
    std::size_t j = i + 1;
    while (j < len && is_space(buf[j])) ++j;
    if (j >= len || buf[j] != ',') continue;
    ++j;
    while (j < len && is_space(buf[j])) ++j;
    if (j < len && buf[j] == '{') return from + j;
  }
  return std::nullopt;
}

}  // namespace cuprobe
