#include "wire/unhandled_kinds.h"

#include "wire/record_wire.h"

namespace cuprobe::wire {

void UnhandledKinds::append_losses(std::string& out) {
  for (const auto& [kind, n] : counts_) {
    append_frame(out, Type::kLoss, Loss{n, static_cast<std::uint32_t>(LossReason::kUnhandledKind), kind});
  }
  counts_.clear();
}

}  // namespace cuprobe::wire
