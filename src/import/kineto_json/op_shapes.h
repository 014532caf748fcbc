// The record_shapes arguments of a torch.profiler operator event ("Input Dims",
// "Input type", "Input Strides", "Concrete Inputs"), read key by key into a
// buffer reused from event to event (cleared, capacity kept), then kept once
// per distinct set in Profile::op_inputs. Tolerant: a value of an unexpected
// shape is skipped and counted (op_shape_malformed) and the event is kept;
// only bad JSON throws.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "import/kineto_json/json_cursor.h"
#include "model/import_stats.h"
#include "model/op_inputs.h"

namespace cuprobe {

bool is_op_shape_key(std::string_view key);

class OpShapeReader {
 public:
  void reset();  // before each event
  bool empty() const { return used_ == 0; }
  // Reads the value after `key` (one of is_op_shape_key's); `event_name` and the
  // cursor's offset go into the stat's example.
  void read(JsonCursor& cursor, std::string_view key, ImportStats& stats, const std::string& event_name);
  std::size_t hash() const;
  bool same_as(const OpInputs& kept) const;
  OpInputs copy() const;

 private:
  std::vector<OpArg> args_;
  std::size_t used_ = 0;
};

}  // namespace cuprobe
