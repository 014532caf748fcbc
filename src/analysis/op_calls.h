// The framework operators of a torch trace in call order, each with the GPU
// activities launched inside it (at any depth) and, where recorded, its argument
// shapes: what the pattern findings (findings_patterns.h) read to tell which
// operator sequence a step runs (matmul, softmax, matmul; cast, then linear).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

struct OpCall {
  std::size_t range = 0;                // index into profile.cpu
  std::string_view name;                // "aten::matmul"
  const OpInputs* inputs = nullptr;     // nullptr where the trace has no shapes for it
  std::vector<std::size_t> activities;  // profile.gpu indices launched inside it, in launch order
  int depth = 0;                        // operators around it on its thread
  std::int64_t pid = -1, tid = -1;
};

// Every operator range of the profile, sorted by start (the outer before the inner at equal starts).
std::vector<OpCall> operator_calls(const Profile& profile);

// The outermost calls (depth 0) only, in order: a thread's sequence of top-level operators.
std::vector<const OpCall*> top_level_calls(const std::vector<OpCall>& calls);

// The base name without its namespace: "aten::matmul" -> "matmul".
std::string_view op_base_name(std::string_view op);

// Argument i's sizes (empty when absent or not a tensor).
const std::vector<std::int64_t>& op_arg_dims(const OpCall& call, std::size_t i);
std::string_view op_arg_type(const OpCall& call, std::size_t i);

}  // namespace cuprobe
