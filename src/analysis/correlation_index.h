// A set of correlation ids, each given a slot in [0, size()) (its rank among
// them): a bitmap over their span with a count per word when they are dense
// enough (CUPTI numbers its records in order; kernels' ids are a good part of
// them), else a sorted vector. The launch walks ask it once per runtime call;
// a node-based hash set cost more there than the walk itself.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace cuprobe {

class CorrelationIndex {
 public:
  CorrelationIndex() = default;
  CorrelationIndex(std::initializer_list<std::int64_t> ids) : CorrelationIndex(std::vector<std::int64_t>(ids)) {}
  explicit CorrelationIndex(std::vector<std::int64_t> ids);  // any order; repeats count once

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The id's slot, or -1 when it is not one of the ids.
  std::int32_t slot(std::int64_t id) const {
    if (bits_.empty()) return sparse_slot(id);
    std::uint64_t at = static_cast<std::uint64_t>(id) - static_cast<std::uint64_t>(low_);
    if (at >= 64 * bits_.size()) return -1;
    std::uint64_t word = bits_[at / 64];
    std::uint64_t bit = std::uint64_t{1} << (at % 64);
    if (!(word & bit)) return -1;
    return below_[at / 64] + ones(word & (bit - 1));
  }
  bool contains(std::int64_t id) const { return slot(id) >= 0; }

 private:
  std::int32_t sparse_slot(std::int64_t id) const;
  // std::popcount is a libgcc call without -mpopcnt: the bit count in a few inline operations.
  static std::int32_t ones(std::uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<std::int32_t>((x * 0x0101010101010101ull) >> 56);
  }

  std::size_t size_ = 0;
  std::int64_t low_ = 0;
  std::vector<std::uint64_t> bits_;   // dense: bit i for low_ + i
  std::vector<std::int32_t> below_;   // dense: ids below each word
  std::vector<std::int64_t> sorted_;  // sparse: the ids; an id's slot is its position
};

}  // namespace cuprobe
