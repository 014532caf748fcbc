#include "collect/build_info.h"

namespace cuprobe {

bool built_with_cupti() {
#ifdef CUPROBE_HAVE_CUPTI
  return true;
#else
  return false;
#endif
}

}  // namespace cuprobe
