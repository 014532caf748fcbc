// The work of one framework operator from its recorded argument shapes
// (torch.profiler record_shapes): bytes it must move at least once and the
// FLOPs it does. Formulas per operator family are in docs/findings.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/device_peaks.h"
#include "model/op_inputs.h"

namespace cuprobe {

enum class WorkKind : std::uint8_t { kGemm, kAttention, kCopy, kGather, kElementwise, kNorm, kReduction, kTransfer };
std::string_view work_kind_name(WorkKind k);

struct OpWork {
  WorkKind kind = WorkKind::kElementwise;
  double bytes = 0;  // reads + writes, each tensor once
  double flops = 0;
  PeakDtype dtype = PeakDtype::kFp32;  // the rate its FLOPs run at
  double elements = 0;                 // copies: elements copied; gathers: elements gathered
  std::vector<std::int64_t> dims;      // copies: the destination's sizes; gathers: the gathered-from tensor's
  bool cast = false;                   // a copy between dtypes
  // Gathers: what sized the gathered elements: "index shapes", "output argument" (an out= tensor), or per call
  // (gather_sizing.h) "gather kernel launch", "consumer's input shapes"; "" while unsized (the trace records no
  // index shapes: torch 2.11 writes aten::index's indices as []), when bytes and elements are 0.
  std::string sized_by;
  int element_bytes = 0;  // gathers: bytes per element of the gathered-from tensor
};

// Bytes per element of a torch type name ("c10::BFloat16" 2, "float" 4, "c10::Float8_e4m3fn" 1); 0 when unknown.
int dtype_bytes(std::string_view torch_type);

// nullopt when the operator is not one the model knows or its shapes do not fit it.
std::optional<OpWork> op_work(std::string_view op_name, const OpInputs& inputs);

// The elements a tensor's storage holds for these sizes and strides: a dimension of stride 0 (expand,
// broadcast) is read once, not once per index. Without strides (or of another rank), every element.
double storage_elements(const std::vector<std::int64_t>& dims, const std::vector<std::int64_t>& strides);

// A tensor's element count from its dims (a negative dim counts as 0), as a double:
// big shapes overflow no integer.
double numel(const std::vector<std::int64_t>& dims);

}  // namespace cuprobe
