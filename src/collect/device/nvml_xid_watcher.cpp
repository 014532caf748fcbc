#include "collect/device/nvml_xid_watcher.h"

#include <time.h>

#include "collect/device/nvml_api.h"

namespace cuprobe {

namespace {
constexpr unsigned kWaitMs = 500;
}  // namespace

NvmlXidWatcher::~NvmlXidWatcher() { stop(); }

std::string NvmlXidWatcher::start() {
  if (!nvml_.ok()) return "NVML unavailable";
  const Nvml::Api& api = nvml_.api();
  if (!api.event_set_create || !api.register_events || !api.event_set_wait || !api.event_set_free) {
    return "NVML lacks nvmlEventSetWait_v2 (or the event set functions)";
  }
  if (api.event_set_create(&set_) != kNvmlSuccess) return "nvmlEventSetCreate failed";
  int n = nvml_.device_count();
  for (int i = 0; i < n; ++i) {
    nvmlDevice_t dev = nullptr;
    if (api.by_index(static_cast<unsigned>(i), &dev) != kNvmlSuccess) continue;
    if (api.register_events(dev, kNvmlEventXid, set_) != kNvmlSuccess) continue;
    index_of_handle_[dev] = i;
    std::lock_guard<std::mutex> lock(mutex_);
    states_[i] = XidState{};
  }
  if (index_of_handle_.empty()) {
    api.event_set_free(set_);
    set_ = nullptr;
    return "no GPU accepted XID event registration";
  }
  running_ = true;
  thread_ = std::thread([this] { run(); });
  return "";
}

void NvmlXidWatcher::run() {
  const Nvml::Api& api = nvml_.api();
  while (running_.load()) {
    nvmlEventData_t data{};
    nvmlReturn_t r = api.event_set_wait(set_, &data, kWaitMs);
    if (r != kNvmlSuccess && r != kNvmlTimeout) {  // GPU lost, driver gone: do not spin
      timespec nap{0, kWaitMs * 1'000'000L};
      nanosleep(&nap, nullptr);
    }
    if (r != kNvmlSuccess || !(data.eventType & kNvmlEventXid)) continue;
    auto it = index_of_handle_.find(data.device);
    if (it == index_of_handle_.end()) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    XidState& s = states_[it->second];
    s.last = static_cast<double>(data.eventData);
    s.count += 1;
  }
}

void NvmlXidWatcher::stop() {
  running_ = false;
  if (thread_.joinable()) thread_.join();
  if (set_) {
    nvml_.api().event_set_free(set_);
    set_ = nullptr;
  }
}

bool NvmlXidWatcher::state(int index, XidState& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = states_.find(index);
  if (it == states_.end()) return false;
  out = it->second;
  return true;
}

}  // namespace cuprobe
