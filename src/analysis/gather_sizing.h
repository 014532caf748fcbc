// A gather whose indices' shapes the trace lacks (torch 2.11's profiler records
// aten::index's indices, a list of optional tensors, as []) still reads a known
// tensor; how much of it is sized per call from what the trace does give, most
// exact first: the gather kernel's launch grid (PyTorch's vectorized_gather_kernel
// runs one block row per gathered index; index_elementwise_kernel<nt, vt> one
// thread per vt output elements in blocks of nt), else the input shapes of the
// operator that consumes the result: a tensor of the gathered-from tensor's dtype
// and last size, smaller than it, in the next operators on the thread (one with
// a single such tensor first, else the largest of the first with several).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/op_work.h"
#include "model/profile.h"

namespace cuprobe {

struct GatherSize {
  double elements = 0;     // gathered (= written) elements
  double index_bytes = 0;  // the indices read, where the source tells (the launch grid: one int64 per row)
  std::string source;      // "gather kernel launch" or "consumer's input shapes"
};

// `work`: the unsized gather (OpWork::sized_by empty) of the operator call profile.cpu[op_range];
// `kernels`: the profile.gpu indices of the kernels it launched.
std::optional<GatherSize> size_gather(const Profile& profile, const OpWork& work, std::size_t op_range,
                                      std::span<const std::size_t> kernels);

// From one gather kernel's name and launch grid alone, for a gather from a tensor of `self_dims`.
std::optional<GatherSize> gathered_by_launch(std::string_view kernel, const GpuActivity& a,
                                             const std::vector<std::int64_t>& self_dims);

// `work` with the size filled in (elements, bytes, sized_by).
OpWork sized_gather(const OpWork& work, const GatherSize& size);

}  // namespace cuprobe
