// Classification of CUPTI results into the reasons cuprobe reports (pure, tested
// without a GPU in tests/collect/cupti/).
#pragma once

#include <cupti_result.h>

#include <string>

#include "collect/counters/pm_backend.h"

namespace cuprobe {

// `call` names the CUPTI function, for the detail text.
BackendStatus classify_cupti_result(CUptiResult result, const char* call);

}  // namespace cuprobe
