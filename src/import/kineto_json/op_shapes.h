// The record_shapes arguments of a torch.profiler operator event ("Input Dims",
// "Input type", "Input Strides", "Concrete Inputs") read into OpInputs.
// Tolerant: a value of an unexpected shape is skipped and counted
// (op_shape_malformed) and the event is kept; only bad JSON throws.
#pragma once

#include <string>
#include <string_view>

#include "import/kineto_json/json_cursor.h"
#include "model/import_stats.h"
#include "model/op_inputs.h"

namespace cuprobe {

bool is_op_shape_key(std::string_view key);

// Reads the value after `key` (one of is_op_shape_key's) into `into`.
// `event_name` and the cursor's offset go into the stat's example.
void read_op_shape_arg(JsonCursor& cursor, std::string_view key, OpInputs& into, ImportStats& stats,
                       const std::string& event_name);

}  // namespace cuprobe
