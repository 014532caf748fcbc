// The CUPTI entry points the injected library uses, resolved with dlopen /
// dlsym at run time: the library links nothing, and it uses whichever
// libcupti the process already holds (PyTorch ships its own), else the one
// the parent names in CUPROBE_CUPTI_PATH.
#pragma once

#include <cupti.h>

#include <string>

namespace cuprobe::inject {

struct CuptiApi {
  decltype(&::cuptiGetVersion) get_version = nullptr;
  decltype(&::cuptiGetResultString) get_result_string = nullptr;
  decltype(&::cuptiGetTimestamp) get_timestamp = nullptr;
  decltype(&::cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&::cuptiActivityEnable) enable = nullptr;
  decltype(&::cuptiActivityDisable) disable = nullptr;
  decltype(&::cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&::cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&::cuptiActivityGetNumDroppedRecords) dropped_records = nullptr;
  decltype(&::cuptiSubscribe) subscribe = nullptr;
  decltype(&::cuptiUnsubscribe) unsubscribe = nullptr;
  decltype(&::cuptiEnableCallback) enable_callback = nullptr;
  decltype(&::cuptiGetCallbackName) callback_name = nullptr;
  decltype(&::cuptiEnableDomain) enable_domain = nullptr;  // optional: null when the library lacks it
  CUptiResult (*enable_hw_trace)(uint8_t) = nullptr;       // optional: cuptiActivityEnableHWTrace, newer CUPTIs only
  decltype(&::cuptiActivitySetAttribute) set_attribute = nullptr;  // optional
  // Optional: ids for launches timed outside CUPTI's activity records (--graphs events).
  decltype(&::cuptiGetStreamIdEx) stream_id = nullptr;
  decltype(&::cuptiGetDeviceId) device_id = nullptr;
  decltype(&::cuptiGetGraphExecId) graph_exec_id = nullptr;
  std::string path;  // the libcupti file in use

  // Empty string on success, else why CUPTI could not be loaded.
  std::string load();
  const char* result_string(CUptiResult r) const;
};

}  // namespace cuprobe::inject
