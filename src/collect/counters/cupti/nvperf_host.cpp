#include "collect/counters/cupti/nvperf_host.h"

#include <mutex>

#include "common/shared_library.h"

namespace cuprobe {

void load_nvperf_host() {
  static std::once_flag once;
  std::call_once(once, [] {
#ifdef CUPROBE_NVPERF_HOST_PATH
    open_library({"libnvperf_host.so", CUPROBE_NVPERF_HOST_PATH}, RTLD_NOW | RTLD_GLOBAL);
#else
    open_library({"libnvperf_host.so"}, RTLD_NOW | RTLD_GLOBAL);
#endif
  });
}

}  // namespace cuprobe
