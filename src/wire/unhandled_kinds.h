// CUPTI records of kinds the injected library does not encode are counted per
// kind and sent as kLoss frames (LossReason::kUnhandledKind, detail = the
// kind), never skipped silently. Standard library only, so the counting and
// the frames it makes are tested on the host (tests/wire/).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace cuprobe::wire {

class UnhandledKinds {
 public:
  void count(std::uint32_t cupti_kind) { ++counts_[cupti_kind]; }
  // Appends one kLoss frame per kind counted since the last call, then starts over.
  void append_losses(std::string& out);
  bool empty() const { return counts_.empty(); }

 private:
  std::map<std::uint32_t, std::uint64_t> counts_;
};

}  // namespace cuprobe::wire
