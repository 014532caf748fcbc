#include "inject/inject_knobs.h"

#include <cstdlib>
#include <cstring>

namespace cuprobe::inject {
namespace {

constexpr const char* kNames[] = {"CUPROBE_INJECT_CUPTI",      "CUPROBE_INJECT_SUBSCRIBE", "CUPROBE_INJECT_BUFFERS",
                                  "CUPROBE_INJECT_BUFFER_MIB", "CUPROBE_INJECT_KINDS",     "CUPROBE_INJECT_GRAPH_TRACE",
                                  "CUPROBE_INJECT_DEVICE",     "CUPROBE_INJECT_WORKER"};

// 0 or 1; nullopt for anything else.
std::optional<bool> flag(const std::string& v) {
  if (v == "0") return false;
  if (v == "1") return true;
  return std::nullopt;
}

// Applies one set knob; false when its value is not understood.
bool apply(InjectKnobs& k, const std::string& name, const std::string& v) {
  if (name == "CUPROBE_INJECT_CUPTI") {
    auto f = flag(v);
    if (f) k.load_cupti = *f;
    return f.has_value();
  }
  if (name == "CUPROBE_INJECT_SUBSCRIBE") {
    if (v == "auto")
      k.subscribe = SubscribeMode::kAuto;
    else if (v == "none")
      k.subscribe = SubscribeMode::kNone;
    else if (v == "all")
      k.subscribe = SubscribeMode::kAll;
    else
      return false;
    return true;
  }
  if (name == "CUPROBE_INJECT_BUFFERS") {
    if (v == "pool")
      k.buffers = BufferMode::kPool;
    else if (v == "malloc")
      k.buffers = BufferMode::kMalloc;
    else if (v == "none")
      k.buffers = BufferMode::kNone;
    else
      return false;
    return true;
  }
  if (name == "CUPROBE_INJECT_BUFFER_MIB") {
    char* end = nullptr;
    long mib = std::strtol(v.c_str(), &end, 10);
    if (end == v.c_str() || *end || mib < 1 || mib > 256) return false;
    k.buffer_bytes = static_cast<std::size_t>(mib) << 20;
    return true;
  }
  if (name == "CUPROBE_INJECT_KINDS") {
    k.kinds = v;
    return true;
  }
  if (name == "CUPROBE_INJECT_GRAPH_TRACE") {
    k.graph_trace = flag(v);
    return k.graph_trace.has_value();
  }
  if (name == "CUPROBE_INJECT_DEVICE") {
    auto f = flag(v);
    if (f) k.device_records = *f;
    return f.has_value();
  }
  if (v == "target-cpus")
    k.worker_off_target_cpus = false;  // CUPROBE_INJECT_WORKER
  else if (v == "off-target-cpus")
    k.worker_off_target_cpus = true;
  else
    return false;
  return true;
}

}  // namespace

InjectKnobs read_inject_knobs(const GetEnv& getenv) {
  InjectKnobs k;
  for (const char* name : kNames) {
    const char* value = getenv(name);
    if (!value) continue;
    std::string setting = std::string(name) + "=" + value;
    if (!apply(k, name, value)) {
      k.problems.push_back(setting);
      continue;
    }
    if (!k.description.empty()) k.description += ' ';
    k.description += setting;
  }
  return k;
}

}  // namespace cuprobe::inject
