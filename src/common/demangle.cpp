#include "common/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <optional>

namespace cuprobe {

namespace {

std::optional<std::string> cxa_demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !out) return std::nullopt;
  return std::string(out.get());
}

}  // namespace

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  if (auto readable = cxa_demangle(name)) return *readable;
  // AMD code objects name a kernel by its descriptor symbol, "<mangled>.kd" (ROCm traces: "_ZN5aiter...E.kd"),
  // which the ABI demangler refuses: the kernel is the name before it.
  if (name.ends_with(".kd")) {
    if (auto readable = cxa_demangle(name.substr(0, name.size() - 3))) return *readable;
  }
  return name;
}

}  // namespace cuprobe
