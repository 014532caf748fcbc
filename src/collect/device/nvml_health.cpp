#include "collect/device/nvml_health.h"

#include "collect/device/nvml_api.h"

namespace cuprobe {
namespace {

void read_fields(const Nvml::Api& api, nvmlDevice_t dev, NvmlHealth& out) {
  if (!api.field_values) return;
  nvmlFieldValue_t f[3] = {};
  f[0].fieldId = kNvmlFieldMemoryTemp;
  f[1].fieldId = kNvmlFieldNvlinkDataTx;
  f[1].scopeId = kNvmlAllLinks;
  f[2].fieldId = kNvmlFieldNvlinkDataRx;
  f[2].scopeId = kNvmlAllLinks;
  if (api.field_values(dev, 3, f) != kNvmlSuccess) return;
  out.memory_temp_c = field_value_number(f[0]);
  out.nvlink_kib = field_value_number(f[1]) + field_value_number(f[2]);  // NaN unless both were read
}

void read_utilisation(const Nvml::Api& api, nvmlDevice_t dev, NvmlHealth& out) {
  nvmlUtilization_t u{};
  if (api.utilization && api.utilization(dev, &u) == kNvmlSuccess) out.mem_copy_util_pct = u.memory;
  unsigned util = 0, period_us = 0;
  if (api.encoder_util && api.encoder_util(dev, &util, &period_us) == kNvmlSuccess) out.enc_util_pct = util;
  if (api.decoder_util && api.decoder_util(dev, &util, &period_us) == kNvmlSuccess) out.dec_util_pct = util;
}

void read_errors(const Nvml::Api& api, nvmlDevice_t dev, NvmlHealth& out) {
  unsigned long long mj = 0;
  if (api.energy && api.energy(dev, &mj) == kNvmlSuccess) out.energy_mj = static_cast<double>(mj);
  unsigned replays = 0;
  if (api.pcie_replays && api.pcie_replays(dev, &replays) == kNvmlSuccess) out.pcie_replays = replays;
  unsigned corr = 0, unc = 0, pending = 0, failed = 0;
  if (api.remapped_rows && api.remapped_rows(dev, &corr, &unc, &pending, &failed) == kNvmlSuccess) {
    out.correctable_remapped_rows = corr;
    out.uncorrectable_remapped_rows = unc;
    out.row_remap_failure = failed ? 1 : 0;
  }
}

// Licensed when any licensable feature is enabled; only asked in a vGPU guest.
void read_vgpu_license(const Nvml::Api& api, nvmlDevice_t dev, NvmlHealth& out) {
  unsigned mode = 0;
  if (!api.virtualization_mode || api.virtualization_mode(dev, &mode) != kNvmlSuccess) return;
  if (mode != kNvmlVirtualizationVgpu || !api.grid_licensable_features) return;
  nvmlGridLicensableFeatures_t features{};
  if (api.grid_licensable_features(dev, &features) != kNvmlSuccess) return;
  bool licensed = false;
  for (unsigned i = 0; i < features.licensableFeaturesCount && i < 3; ++i) {
    licensed |= features.gridLicensableFeatures[i].featureEnabled != 0;
  }
  out.vgpu_license = licensed ? 1 : 0;
}

}  // namespace

bool read_nvml_health(const Nvml& nvml, int index, NvmlHealth& out) {
  out = NvmlHealth{};
  if (!nvml.ok()) return false;
  const Nvml::Api& api = nvml.api();
  nvmlDevice_t dev = nullptr;
  if (api.by_index(static_cast<unsigned>(index), &dev) != kNvmlSuccess) return false;
  read_memory_into(api, dev, out);
  read_fields(api, dev, out);
  read_utilisation(api, dev, out);
  read_errors(api, dev, out);
  read_vgpu_license(api, dev, out);
  return true;
}

double nvml_health_value(const NvmlHealth& h, const std::string& name) {
  struct Entry {
    const char* name;
    double NvmlHealth::*field;
  };
  static constexpr Entry kEntries[] = {
      {"memory_free_bytes", &NvmlHealth::memory_free_bytes},
      {"memory_reserved_bytes", &NvmlHealth::memory_reserved_bytes},
      {"memory_temp_c", &NvmlHealth::memory_temp_c},
      {"mem_copy_util_pct", &NvmlHealth::mem_copy_util_pct},
      {"enc_util_pct", &NvmlHealth::enc_util_pct},
      {"dec_util_pct", &NvmlHealth::dec_util_pct},
      {"energy_mj", &NvmlHealth::energy_mj},
      {"pcie_replays", &NvmlHealth::pcie_replays},
      {"nvlink_kib", &NvmlHealth::nvlink_kib},
      {"vgpu_license", &NvmlHealth::vgpu_license},
      {"uncorrectable_remapped_rows", &NvmlHealth::uncorrectable_remapped_rows},
      {"correctable_remapped_rows", &NvmlHealth::correctable_remapped_rows},
      {"row_remap_failure", &NvmlHealth::row_remap_failure},
  };
  for (const Entry& e : kEntries) {
    if (name == e.name) return h.*e.field;
  }
  return NAN;
}

}  // namespace cuprobe
