#include "common/shared_library.h"

#include <link.h>

namespace cuprobe {

OpenedLibrary open_library(std::initializer_list<const char*> names, int mode) {
  OpenedLibrary out;
  for (const char* name : names) {
    out.handle = dlopen(name, mode);
    if (out.handle) break;
    const char* why = dlerror();
    if (!out.error.empty()) out.error += "; ";
    out.error += why ? why : std::string(name) + ": not found";
  }
  if (!out.handle) return out;
  out.error.clear();
  link_map* map = nullptr;
  if (dlinfo(out.handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) out.path = map->l_name;
  return out;
}

std::string resolve_symbols(const OpenedLibrary& library, std::initializer_list<LibrarySymbol> table) {
  std::string missing;
  for (const LibrarySymbol& s : table) {
    void* address = library.handle ? dlsym(library.handle, s.name) : nullptr;
    s.assign(s.slot, address);
    if (!address && s.required) missing += (missing.empty() ? "" : ", ") + std::string(s.name);
  }
  if (missing.empty()) return {};
  return (library.path.empty() ? std::string("the library") : library.path) + " lacks " + missing;
}

}  // namespace cuprobe
