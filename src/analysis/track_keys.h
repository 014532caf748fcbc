// The tracks the walks over a profile key by: a GPU stream (numbered per device) and a CPU thread (per process).
#pragma once

#include <cstdint>
#include <functional>

namespace cuprobe {

struct StreamKey {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  bool operator==(const StreamKey&) const = default;
  bool operator<(const StreamKey& o) const { return device != o.device ? device < o.device : stream < o.stream; }
};

struct StreamKeyHash {
  std::size_t operator()(const StreamKey& k) const {
    return std::hash<std::int64_t>()(k.stream) * 31 + std::hash<std::int32_t>()(k.device);
  }
};

struct ThreadKey {
  std::int64_t pid = -1, tid = -1;
  bool operator==(const ThreadKey&) const = default;
};

struct ThreadKeyHash {
  std::size_t operator()(const ThreadKey& k) const {
    return std::hash<std::int64_t>()(k.pid) * 31 + std::hash<std::int64_t>()(k.tid);
  }
};

}  // namespace cuprobe
