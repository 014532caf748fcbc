// Libraries opened at run time (dlopen) and the functions resolved from them:
// the CUDA driver, NVML and CUPTI are found this way so that cuprobe and the
// injected library run on machines without them, and say why when they are
// missing. One home for opening, resolving and the error text.
#pragma once

#include <dlfcn.h>

#include <initializer_list>
#include <string>

namespace cuprobe {

struct OpenedLibrary {
  void* handle = nullptr;  // never closed: the functions stay valid for the process
  std::string path;        // the file the loader picked (empty when not opened)
  std::string error;       // why none of the names opened (dlerror of each)
  explicit operator bool() const { return handle != nullptr; }
};

// dlopen()s the first of `names` that opens with `mode` (RTLD_NOW | RTLD_LOCAL,
// ...; with RTLD_NOLOAD only a copy the process already holds).
OpenedLibrary open_library(std::initializer_list<const char*> names, int mode);

// One function to resolve: its name and the pointer it fills (null when absent).
struct LibrarySymbol {
  const char* name;
  void* slot;
  void (*assign)(void* slot, void* address);
  bool required;
};

template <typename F>
LibrarySymbol required_symbol(const char* name, F& fn) {
  return {name, &fn, [](void* slot, void* address) { *static_cast<F*>(slot) = reinterpret_cast<F>(address); }, true};
}

template <typename F>
LibrarySymbol optional_symbol(const char* name, F& fn) {
  LibrarySymbol s = required_symbol(name, fn);
  s.required = false;
  return s;
}

// Fills every slot from the library; returns "" when all required ones were
// found, else "LIBRARY lacks NAME, NAME".
std::string resolve_symbols(const OpenedLibrary& library, std::initializer_list<LibrarySymbol> table);

}  // namespace cuprobe
