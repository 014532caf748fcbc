// XID errors as NVML reports them: a thread registers every GPU for
// nvmlEventTypeXidCriticalError and waits on the event set (nvmlEventSetWait_v2,
// 500 ms at a time, so stop() is heard quickly). Per GPU it keeps the last XID
// (dcgm-exporter's DCGM_FI_DEV_XID_ERRORS: 0 until one comes) and how many came
// (cuprobe_xid_errors_total). A GPU that cannot be registered has no XID series.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "collect/device/nvml.h"

namespace cuprobe {

struct XidState {
  double last = 0;   // the last XID seen (999: unknown to NVML)
  double count = 0;  // XIDs seen since the watcher started
};

class NvmlXidWatcher {
 public:
  explicit NvmlXidWatcher(const Nvml& nvml) : nvml_(nvml) {}
  ~NvmlXidWatcher();
  NvmlXidWatcher(const NvmlXidWatcher&) = delete;
  NvmlXidWatcher& operator=(const NvmlXidWatcher&) = delete;

  // Registers the GPUs and starts the thread; "" when watching, else why not (one line).
  std::string start();
  void stop();
  // The GPU's state; false when it is not watched (no XID series for it).
  bool state(int index, XidState& out) const;

 private:
  void run();

  const Nvml& nvml_;
  void* set_ = nullptr;
  std::map<void*, int> index_of_handle_;
  mutable std::mutex mutex_;
  std::map<int, XidState> states_;
  std::atomic<bool> running_{false};
  std::thread thread_;
};

}  // namespace cuprobe
