#include "analysis/gather_sizing.h"

#include <algorithm>
#include <charconv>

#include "analysis/op_work.h"

namespace cuprobe {
namespace {

// The first two integer template arguments after `prefix<` in a demangled name: "<128, 4, ...>" -> 128, 4.
bool two_template_ints(std::string_view name, std::string_view prefix, long& a, long& b) {
  std::size_t at = name.find(prefix);
  if (at == std::string_view::npos) return false;
  const char* p = name.data() + at + prefix.size();
  const char* end = name.data() + name.size();
  auto [q, ec] = std::from_chars(p, end, a);
  if (ec != std::errc() || q + 2 > end || *q != ',') return false;
  ++q;
  while (q < end && *q == ' ') ++q;
  auto [r, ec2] = std::from_chars(q, end, b);
  return ec2 == std::errc() && r != q;
}

// How many elements of `self` the candidate tensor of the consumer could be: part of it, rows of its last size.
bool could_be_gathered(const OpArg& arg, const OpArg& self) {
  if (arg.type != self.type || arg.dims.empty() || self.dims.empty()) return false;
  if (arg.dims.back() != self.dims.back()) return false;
  return numel(arg.dims) < numel(self.dims);
}

constexpr int kConsumerLookahead = 16;  // operator calls after the gather that may consume it

// The consumer: an operator with one tensor that could be the gathered rows (a view, reshape, transpose of them)
// is taken first; else the first operator with several, its largest (a weight of the same last size may be
// among them: the trace has no tensor ids to tell).
std::optional<GatherSize> by_consumer(const Profile& profile, std::size_t op_range) {
  const CpuRange& gather = profile.cpu[op_range];
  if (gather.inputs < 0) return std::nullopt;
  const OpArg& self = profile.op_inputs[static_cast<std::size_t>(gather.inputs)].args.at(0);
  std::optional<GatherSize> several;
  int looked = 0;
  for (std::size_t i = op_range + 1; i < profile.cpu.size() && looked < kConsumerLookahead; ++i) {
    const CpuRange& r = profile.cpu[i];
    if (r.kind != CpuRangeKind::kOperator || r.tid != gather.tid || r.pid != gather.pid) continue;
    if (r.start < gather.end) continue;  // inside the gather: its own reshapes of the indices
    ++looked;
    if (r.inputs < 0) continue;
    double largest = 0;
    int candidates = 0;
    for (const OpArg& arg : profile.op_inputs[static_cast<std::size_t>(r.inputs)].args) {
      if (!could_be_gathered(arg, self)) continue;
      ++candidates;
      largest = std::max(largest, numel(arg.dims));
    }
    if (candidates == 1) return GatherSize{largest, 0, "consumer's input shapes"};
    if (candidates > 1 && !several) several = GatherSize{largest, 0, "consumer's input shapes"};
  }
  return several;
}

}  // namespace

std::optional<GatherSize> gathered_by_launch(std::string_view kernel, const GpuActivity& a,
                                             const std::vector<std::int64_t>& self_dims) {
  if (self_dims.empty() || a.grid[0] <= 0) return std::nullopt;
  double whole = numel(self_dims);
  double row = whole / static_cast<double>(std::max<std::int64_t>(self_dims.front(), 1));
  if (kernel.find("vectorized_gather_kernel<") != std::string_view::npos) {
    // vectorized_gather_kernel_launch: grid = (indices, slice chunks); each block row copies one slice of dim 0.
    double rows = a.grid[0];
    return GatherSize{std::min(whole, rows * row), rows * 8, "gather kernel launch"};
  }
  long nt = 0, vt = 0;
  if (two_template_ints(kernel, "index_elementwise_kernel<", nt, vt) && nt > 0 && vt > 0) {
    // launch_kernel<nt, vt>(N): grid = ceil(N / (nt * vt)), so N is within nt * vt - 1 below this.
    double n = static_cast<double>(a.grid[0]) * static_cast<double>(nt) * static_cast<double>(vt);
    return GatherSize{std::min(whole, n), 0, "gather kernel launch"};
  }
  return std::nullopt;
}

std::optional<GatherSize> size_gather(const Profile& profile, const OpWork& work, std::size_t op_range,
                                      std::span<const std::size_t> kernels) {
  std::optional<GatherSize> launched;
  for (std::size_t k : kernels) {
    const GpuActivity& a = profile.gpu[k];
    if (a.kind != GpuActivityKind::kKernel) continue;
    if (auto s = gathered_by_launch(profile.name_of(a.name), a, work.dims)) {
      if (!launched) {
        launched = s;
      } else {  // a gather split into several launches
        launched->elements += s->elements;
        launched->index_bytes += s->index_bytes;
      }
    }
  }
  if (launched) {
    launched->elements = std::min(launched->elements, numel(work.dims));
    return launched;
  }
  return by_consumer(profile, op_range);
}

OpWork sized_gather(const OpWork& work, const GatherSize& size) {
  OpWork w = work;
  w.elements = size.elements;
  w.bytes = size.elements * 2 * work.element_bytes + size.index_bytes;
  w.sized_by = size.source;
  return w;
}

}  // namespace cuprobe
