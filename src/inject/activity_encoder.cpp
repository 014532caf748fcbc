#include "inject/activity_encoder.h"

#include <cstring>

namespace cuprobe::inject {
namespace {

MemcpyKind copy_kind(std::uint8_t cupti_kind) {
  switch (cupti_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return MemcpyKind::kHtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return MemcpyKind::kDtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return MemcpyKind::kDtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return MemcpyKind::kHtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return MemcpyKind::kPtoP;
    default:
      return MemcpyKind::kUnknown;
  }
}

// A wire activity record with its wire::Activity header filled from a CUPTI kernel,
// memcpy, memset or graph record (they share those fields).
template <typename Wire, typename Cupti>
Wire common_fields(const Cupti* c) {
  Wire w{};
  w.start = static_cast<std::int64_t>(c->start);
  w.end = static_cast<std::int64_t>(c->end);
  w.correlation = c->correlationId;
  w.graph_id = c->graphId;
  w.stream = c->streamId;
  w.device = static_cast<std::int32_t>(c->deviceId);
  return w;
}

}  // namespace

std::uint32_t ActivityEncoder::intern(const char* s, wire::StringKind kind, std::string& out) {
  if (!s) s = "<unnamed>";
  auto& map = ids_[static_cast<int>(kind)];
  std::string_view name(s);
  auto it = map.find(name);
  if (it != map.end()) return it->second;
  std::uint32_t id = next_id_++;
  map.emplace(name, id);
  wire::append_frame(out, wire::Type::kString, wire::String{id, static_cast<std::uint32_t>(kind)},
                     name.substr(0, wire::kMaxPayload - sizeof(wire::String)));
  return id;
}

void ActivityEncoder::encode_buffer(std::uint8_t* buffer, std::size_t valid, std::string& out,
                                    const CaptureWindow& graph_window) {
  CUpti_Activity* record = nullptr;
  while (true) {
    CUptiResult r = api_.next_record(buffer, valid, &record);
    if (r == CUPTI_ERROR_MAX_LIMIT_REACHED) break;
    if (r != CUPTI_SUCCESS) {
      ++unreadable_;
      break;
    }
    encode(record, out, graph_window);
  }
}

void ActivityEncoder::encode(const CUpti_Activity* record, std::string& out, const CaptureWindow& graph_window) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      auto w = common_fields<wire::Kernel>(k);
      w.name_id = intern(k->name, wire::StringKind::kKernelName, out);
      w.grid[0] = k->gridX, w.grid[1] = k->gridY, w.grid[2] = k->gridZ;
      w.block[0] = k->blockX, w.block[1] = k->blockY, w.block[2] = k->blockZ;
      w.registers = k->registersPerThread;
      w.static_shared = k->staticSharedMemory;
      w.dynamic_shared = k->dynamicSharedMemory;
      wire::append_frame(out, wire::Type::kKernel, w);
      ++records_;
      break;
    }
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE: {
      auto w = common_fields<wire::GraphLaunch>(reinterpret_cast<const CUpti_ActivityGraphTrace2*>(record));
      if (!graph_window.contains(w.start)) break;
      wire::append_frame(out, wire::Type::kGraphLaunch, w);
      ++records_;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      auto w = common_fields<wire::Memcpy>(m);
      w.bytes = static_cast<std::int64_t>(m->bytes);
      w.kind = static_cast<std::uint8_t>(copy_kind(m->copyKind));
      wire::append_frame(out, wire::Type::kMemcpy, w);
      ++records_;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      auto w = common_fields<wire::Memset>(m);
      w.bytes = static_cast<std::int64_t>(m->bytes);
      wire::append_frame(out, wire::Type::kMemset, w);
      ++records_;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MARKER:
      encode_marker(reinterpret_cast<const CUpti_ActivityMarker2*>(record), out);
      break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      encode_api(reinterpret_cast<const CUpti_ActivityAPI*>(record), record->kind == CUPTI_ACTIVITY_KIND_RUNTIME, out);
      break;
    case CUPTI_ACTIVITY_KIND_DEVICE: {
      const auto* d = reinterpret_cast<const CUpti_ActivityDevice5*>(record);
      wire::Device w{};
      w.id = static_cast<std::int32_t>(d->id);
      w.sm_count = static_cast<std::int32_t>(d->numMultiprocessors);
      w.compute_major = static_cast<std::int32_t>(d->computeCapabilityMajor);
      w.compute_minor = static_cast<std::int32_t>(d->computeCapabilityMinor);
      w.memory_bytes = static_cast<std::int64_t>(d->globalMemorySize);
      static_assert(sizeof w.uuid == sizeof d->uuid.bytes);
      std::memcpy(w.uuid, d->uuid.bytes, sizeof w.uuid);
      const char* name = d->name ? d->name : "";
      wire::append_frame(out, wire::Type::kDevice, w, std::string_view(name, strnlen(name, 256)));
      break;
    }
    default:
      unhandled_.count(static_cast<std::uint32_t>(record->kind));
      break;
  }
}

void ActivityEncoder::encode_marker(const CUpti_ActivityMarker2* m, std::string& out) {
  std::int64_t tid = m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : -1;
  if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
    open_markers_[m->id] = {static_cast<std::int64_t>(m->timestamp), tid,
                            intern(m->name, wire::StringKind::kRangeName, out)};
  } else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
    auto it = open_markers_.find(m->id);
    if (it == open_markers_.end()) return;
    wire::Range w{};
    w.start = it->second.start;
    w.end = static_cast<std::int64_t>(m->timestamp);
    w.tid = it->second.tid;
    w.correlation = -1;
    w.name_id = it->second.name_id;
    w.kind = static_cast<std::uint16_t>(RangeKind::kNvtx);
    open_markers_.erase(it);
    wire::append_frame(out, wire::Type::kRange, w);
    ++records_;
  } else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
    wire::Range w{};
    w.start = w.end = static_cast<std::int64_t>(m->timestamp);
    w.tid = tid;
    w.correlation = -1;
    w.name_id = intern(m->name, wire::StringKind::kRangeName, out);
    w.kind = static_cast<std::uint16_t>(RangeKind::kNvtx);
    wire::append_frame(out, wire::Type::kRange, w);
    ++records_;
  }
}

void ActivityEncoder::encode_api(const CUpti_ActivityAPI* a, bool runtime, std::string& out) {
  std::uint32_t key = a->cbid | (runtime ? 0u : 0x80000000u);
  auto it = api_names_.find(key);
  if (it == api_names_.end()) {
    const char* name = nullptr;
    api_.callback_name(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a->cbid, &name);
    it = api_names_.emplace(key, intern(name, wire::StringKind::kApiName, out)).first;
  }
  wire::Range w{};
  w.start = static_cast<std::int64_t>(a->start);
  w.end = static_cast<std::int64_t>(a->end);
  w.tid = a->threadId;
  w.correlation = a->correlationId;
  w.name_id = it->second;
  w.kind = static_cast<std::uint16_t>(runtime ? RangeKind::kRuntimeApi : RangeKind::kDriverApi);
  wire::append_frame(out, wire::Type::kRange, w);
  ++records_;
}

}  // namespace cuprobe::inject
