// The inputs of one framework operator as torch.profiler records them with
// record_shapes=True ("Input Dims", "Input type", "Input Strides", "Concrete
// Inputs"): one entry per argument, tensors and scalars alike, in call order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuprobe {

struct OpArg {
  std::string type;                // "c10::BFloat16", "float", "Scalar", "TensorList", "" ...
  std::vector<std::int64_t> dims;  // a tensor's sizes; empty for scalars and 0-d tensors
  std::vector<std::int64_t> strides;
  std::vector<std::vector<std::int64_t>> list_dims;  // a TensorList's tensors' sizes
  std::string concrete;                              // the value of a scalar argument ("15", "False", "[-1]"), else ""
  bool operator==(const OpArg&) const = default;
};

// Shared by every operator call with the same arguments (a decode step repeats its
// shapes every step): Profile::op_inputs holds each distinct set once.
struct OpInputs {
  std::vector<OpArg> args;
  bool operator==(const OpInputs&) const = default;
};

}  // namespace cuprobe
