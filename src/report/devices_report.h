// `cuprobe devices` for people (a table) and for programs (schema "cuprobe.devices/1").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "collect/device/device_inventory.h"

namespace cuprobe {

nlohmann::json devices_json(const DevicesReport& report);
std::string format_devices(const DevicesReport& report);

}  // namespace cuprobe
