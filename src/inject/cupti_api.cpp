#include "inject/cupti_api.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>

namespace cuprobe::inject {
namespace {

template <typename F>
bool resolve(void* handle, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  return out != nullptr;
}

}  // namespace

std::string CuptiApi::load() {
  void* handle = nullptr;
  // A copy already in the process first: two CUPTIs in one process fight.
  for (const char* name : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
    handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
    if (handle) break;
  }
  std::string errors;
  if (!handle) {
    const char* hint = std::getenv("CUPROBE_CUPTI_PATH");
    if (hint && *hint) {
      handle = dlopen(hint, RTLD_NOW | RTLD_LOCAL);
      if (!handle) errors += dlerror();
    }
  }
  if (!handle) {
    for (const char* name : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
      handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle) break;
    }
  }
  if (!handle) return "libcupti not found (" + (errors.empty() ? std::string(dlerror() ? dlerror() : "") : errors) + ")";
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) path = map->l_name;
  bool ok = resolve(handle, "cuptiGetVersion", get_version) &&
            resolve(handle, "cuptiGetResultString", get_result_string) &&
            resolve(handle, "cuptiGetTimestamp", get_timestamp) &&
            resolve(handle, "cuptiActivityRegisterCallbacks", register_callbacks) &&
            resolve(handle, "cuptiActivityEnable", enable) && resolve(handle, "cuptiActivityDisable", disable) &&
            resolve(handle, "cuptiActivityFlushAll", flush_all) &&
            resolve(handle, "cuptiActivityGetNextRecord", next_record) &&
            resolve(handle, "cuptiActivityGetNumDroppedRecords", dropped_records) &&
            resolve(handle, "cuptiSubscribe", subscribe) && resolve(handle, "cuptiEnableCallback", enable_callback) &&
            resolve(handle, "cuptiGetCallbackName", callback_name);
  if (!ok) return "libcupti at " + path + " lacks a needed function";
  enable_domain = reinterpret_cast<decltype(enable_domain)>(dlsym(handle, "cuptiEnableDomain"));
  return {};
}

const char* CuptiApi::result_string(CUptiResult r) const {
  const char* s = nullptr;
  if (get_result_string && get_result_string(r, &s) == CUPTI_SUCCESS && s) return s;
  return "unknown CUPTI error";
}

}  // namespace cuprobe::inject
