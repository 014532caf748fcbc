#include "net/hpack_encoder.h"

#include "net/hpack_integer.h"

namespace cuprobe {

std::string hpack_encode(const std::vector<HeaderField>& fields) {
  std::string out;
  for (const auto& f : fields) {
    out += '\0';  // literal without indexing, new name
    hpack_put_integer(out, f.name.size(), 7, 0);
    out += f.name;
    hpack_put_integer(out, f.value.size(), 7, 0);
    out += f.value;
  }
  return out;
}

}  // namespace cuprobe
