// Built without CUDA: no backend, so open_device_sampler() refuses with exit code 3.
#include "collect/counters/pm_backend.h"

namespace cuprobe {

std::unique_ptr<PmBackend> make_cupti_backend() { return nullptr; }

}  // namespace cuprobe
