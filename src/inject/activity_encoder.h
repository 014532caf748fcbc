// Turns the records of one completed CUPTI activity buffer into wire frames
// (wire/record_wire.h). Runs on the library's worker thread only.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "inject/cupti_api.h"
#include "wire/capture_window.h"
#include "wire/record_wire.h"
#include "wire/unhandled_kinds.h"

namespace cuprobe::inject {

class ActivityEncoder {
 public:
  explicit ActivityEncoder(const CuptiApi& api) : api_(api) {}

  // Appends the frames for every record in buffer[0, valid) to `out`; graph launches
  // only when they started inside `graph_window` (CUPTI clock).
  void encode_buffer(std::uint8_t* buffer, std::size_t valid, std::string& out, const CaptureWindow& graph_window);
  std::uint64_t records() const { return records_; }
  std::uint64_t unreadable() const { return unreadable_; }
  // Loss frames for the records of kinds it does not encode, counted per kind since the last call.
  void append_unhandled(std::string& out) { unhandled_.append_losses(out); }

 private:
  std::uint32_t intern(const char* s, wire::StringKind kind, std::string& out);
  void encode(const CUpti_Activity* record, std::string& out, const CaptureWindow& graph_window);
  // NVTX markers: a start kept until its end makes one range; an instantaneous marker is a range of no length.
  void encode_marker(const CUpti_ActivityMarker2* m, std::string& out);
  // A runtime or driver API call, its name interned once per callback id.
  void encode_api(const CUpti_ActivityAPI* a, bool runtime, std::string& out);

  // Looked up by string_view: no string is built (nor allocated) per record.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  const CuptiApi& api_;
  std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> ids_[3];
  std::uint32_t next_id_ = 1;
  struct OpenMarker {
    std::int64_t start;
    std::int64_t tid;
    std::uint32_t name_id;
  };
  std::unordered_map<std::uint32_t, OpenMarker> open_markers_;
  std::unordered_map<std::uint32_t, std::uint32_t> api_names_;  // runtime cbid -> string id
  std::uint64_t records_ = 0;
  std::uint64_t unreadable_ = 0;
  wire::UnhandledKinds unhandled_;
};

}  // namespace cuprobe::inject
