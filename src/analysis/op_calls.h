// The framework operators of a torch trace in call order, each with the GPU
// activities launched inside it (at any depth) and, where recorded, its argument
// shapes: what the pattern findings (findings_patterns.h) read to tell which
// operator sequence a step runs (matmul, softmax, matmul; cast, then linear).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

// One call, as OperatorCalls hands it out (a view into the profile; made on access).
struct OpCall {
  std::size_t range = 0;                      // index into profile.cpu
  std::string_view name;                      // "aten::matmul"
  const OpInputs* inputs = nullptr;           // nullptr where the trace has no shapes for it
  std::span<const std::uint32_t> activities;  // profile.gpu indices launched inside it, in launch order
  int depth = 0;                              // operators around it on its thread
  std::int64_t tid = -1;                      // its thread (profile.cpu[range].tid)
};

// Every operator range of the profile, sorted by start (the outer before the inner at equal starts). Stored in
// 16 bytes a call and one array of activity indices (a large trace has hundreds of thousands of operators: a
// vector per call and its names and ids copied cost tens of MiB at analyze's peak).
class OperatorCalls {
 public:
  explicit OperatorCalls(const Profile& profile);
  std::size_t size() const { return calls_.size(); }
  bool empty() const { return calls_.empty(); }
  OpCall operator[](std::size_t k) const;

 private:
  struct Stored {
    std::uint32_t range = 0;
    std::int32_t depth = 0;
    std::uint32_t first_activity = 0, activity_count = 0;  // into activities_
  };
  std::uint32_t call_of(std::uint32_t range) const;  // the call of an operator range (an index into profile.cpu)

  const Profile* profile_;
  std::vector<Stored> calls_;
  std::vector<std::uint32_t> activities_;
};

// The base name without its namespace: "aten::matmul" -> "matmul".
std::string_view op_base_name(std::string_view op);

// Argument i's sizes (empty when absent or not a tensor).
const std::vector<std::int64_t>& op_arg_dims(const OpCall& call, std::size_t i);
std::string_view op_arg_type(const OpCall& call, std::size_t i);

}  // namespace cuprobe
