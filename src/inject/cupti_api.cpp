#include "inject/cupti_api.h"

#include <cstdlib>

#include "common/shared_library.h"

namespace cuprobe::inject {

std::string CuptiApi::load() {
  // A copy already in the process first: two CUPTIs in one process fight.
  OpenedLibrary lib = open_library({"libcupti.so.13", "libcupti.so.12", "libcupti.so"}, RTLD_NOW | RTLD_NOLOAD);
  std::string errors;
  if (!lib) {
    const char* hint = std::getenv("CUPROBE_CUPTI_PATH");
    if (hint && *hint) {
      lib = open_library({hint}, RTLD_NOW | RTLD_LOCAL);
      errors = lib.error;
    }
  }
  if (!lib) {
    lib = open_library({"libcupti.so.13", "libcupti.so.12", "libcupti.so"}, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return "libcupti not found (" + (errors.empty() ? lib.error : errors) + ")";
  }
  path = lib.path;
  return resolve_symbols(
      lib,
      {required_symbol("cuptiGetVersion", get_version), required_symbol("cuptiGetResultString", get_result_string),
       required_symbol("cuptiGetTimestamp", get_timestamp),
       required_symbol("cuptiActivityRegisterCallbacks", register_callbacks),
       required_symbol("cuptiActivityEnable", enable), required_symbol("cuptiActivityDisable", disable),
       required_symbol("cuptiActivityFlushAll", flush_all), required_symbol("cuptiActivityGetNextRecord", next_record),
       required_symbol("cuptiActivityGetNumDroppedRecords", dropped_records),
       required_symbol("cuptiSubscribe", subscribe), required_symbol("cuptiUnsubscribe", unsubscribe),
       required_symbol("cuptiEnableCallback", enable_callback), required_symbol("cuptiGetCallbackName", callback_name),
       optional_symbol("cuptiEnableDomain", enable_domain),
       optional_symbol("cuptiActivityEnableHWTrace", enable_hw_trace), optional_symbol("cuptiGetStreamIdEx", stream_id),
       optional_symbol("cuptiActivitySetAttribute", set_attribute), optional_symbol("cuptiGetDeviceId", device_id),
       optional_symbol("cuptiGetGraphExecId", graph_exec_id)});
}

const char* CuptiApi::result_string(CUptiResult r) const {
  const char* s = nullptr;
  if (get_result_string && get_result_string(r, &s) == CUPTI_SUCCESS && s) return s;
  return "unknown CUPTI error";
}

}  // namespace cuprobe::inject
