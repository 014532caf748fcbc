#include "analysis/correlation_index.h"

#include <algorithm>

namespace cuprobe {

CorrelationIndex::CorrelationIndex(std::vector<std::int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  size_ = ids.size();
  if (ids.empty()) return;
  low_ = ids.front();
  // Unsigned: the difference of any two int64 values, exact. Dense: at most 64 bits per id.
  std::uint64_t span = static_cast<std::uint64_t>(ids.back()) - static_cast<std::uint64_t>(low_);
  if (span / 64 < ids.size() + 64) {
    bits_.assign(static_cast<std::size_t>(span / 64) + 1, 0);
    for (std::int64_t id : ids) {
      std::uint64_t at = static_cast<std::uint64_t>(id) - static_cast<std::uint64_t>(low_);
      bits_[at / 64] |= std::uint64_t{1} << (at % 64);
    }
    below_.resize(bits_.size());
    std::int32_t count = 0;
    for (std::size_t w = 0; w < bits_.size(); ++w) {
      below_[w] = count;
      count += ones(bits_[w]);
    }
    return;
  }
  sorted_ = std::move(ids);
}

std::int32_t CorrelationIndex::sparse_slot(std::int64_t id) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), id);
  return it != sorted_.end() && *it == id ? static_cast<std::int32_t>(it - sorted_.begin()) : -1;
}

}  // namespace cuprobe
