#include "import/demangle_names.h"

#include <unordered_map>

#include "common/demangle.h"

namespace cuprobe {

std::size_t demangle_kernel_names(Profile& profile) {
  std::unordered_map<StringId, StringId> renamed;  // each distinct name demangled once
  std::size_t demangled = 0;
  for (GpuActivity& a : profile.gpu) {
    auto it = renamed.find(a.name);
    if (it == renamed.end()) {
      std::string_view name = profile.name_of(a.name);
      StringId to = a.name;
      if (name.starts_with("_Z")) {
        std::string readable = demangle(std::string(name));
        if (readable != name) {
          to = profile.strings.intern(readable);
          ++demangled;
        }
      }
      it = renamed.emplace(a.name, to).first;
    }
    a.name = it->second;
  }
  return demangled;
}

}  // namespace cuprobe
