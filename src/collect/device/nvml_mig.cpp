#include "collect/device/nvml_mig.h"

#include <algorithm>

#include "collect/device/nvml_api.h"

namespace cuprobe {
namespace {

constexpr unsigned kMigEnabled = 1;  // NVML_DEVICE_MIG_ENABLE

}  // namespace

std::string mig_profile_from_name(const std::string& name) {
  auto at = name.rfind("MIG ");
  return at == std::string::npos ? name : name.substr(at + 4);
}

std::vector<GpuInstance> nvml_gpu_instances(const Nvml& nvml, int index) {
  std::vector<GpuInstance> out;
  if (!nvml.ok()) return out;
  const Nvml::Api& api = nvml.api();
  if (!api.mig_mode || !api.max_mig_devices || !api.mig_device_by_index || !api.gpu_instance_id) return out;
  nvmlDevice_t dev = nullptr;
  unsigned current = 0, pending = 0, max = 0;
  if (api.by_index(static_cast<unsigned>(index), &dev) != kNvmlSuccess) return out;
  if (api.mig_mode(dev, &current, &pending) != kNvmlSuccess || current != kMigEnabled) return out;
  if (api.max_mig_devices(dev, &max) != kNvmlSuccess) return out;
  for (unsigned i = 0; i < max; ++i) {
    nvmlDevice_t mig = nullptr;
    unsigned gi_id = 0;
    if (api.mig_device_by_index(dev, i, &mig) != kNvmlSuccess) continue;  // a hole: no MIG device there
    if (api.gpu_instance_id(mig, &gi_id) != kNvmlSuccess) continue;
    // Several compute instances of one GPU instance: the instance is served once.
    if (std::any_of(out.begin(), out.end(), [&](const GpuInstance& g) { return g.id == gi_id; })) continue;
    GpuInstance gi;
    gi.id = gi_id;
    char buf[256] = {};
    if (api.name && api.name(mig, buf, sizeof buf - 1) == kNvmlSuccess) gi.profile = mig_profile_from_name(buf);
    buf[0] = 0;
    if (api.uuid && api.uuid(mig, buf, sizeof buf - 1) == kNvmlSuccess) gi.uuid = buf;
    read_memory_into(api, mig, gi);
    out.push_back(std::move(gi));
  }
  return out;
}

}  // namespace cuprobe
