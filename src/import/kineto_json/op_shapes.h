// The record_shapes arguments of a torch.profiler operator event ("Input Dims",
// "Input type", "Input Strides", "Concrete Inputs"), kept once per distinct set
// in Profile::op_inputs. Tolerant: a value of an unexpected shape is skipped and
// counted (op_shape_malformed) and the event is kept; only bad JSON throws.
//
// A decode step repeats its operators' arguments every step, so the values are
// first only skipped and kept as written; at the end of the event's args their
// text is looked up in an OpShapeCache, and only a set not seen before is parsed
// (from the kept text, by a second cursor that sees the same bytes, so errors
// and counts are those of parsing in place).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "import/kineto_json/json_cursor.h"
#include "model/import_stats.h"
#include "model/op_inputs.h"

namespace cuprobe {

// "Input Dims", "Input type", "Input Strides" or "Concrete Inputs" (asked of most keys of every args:
// fixed-size compares, as kineto_importer's key_is).
inline bool is_op_shape_key(std::string_view key) {
  auto is = [&](const char* literal, std::size_t n) { return std::memcmp(key.data(), literal, n) == 0; };
  switch (key.size()) {
    case 10:
      return is("Input Dims", 10) || is("Input type", 10);
    case 13:
      return is("Input Strides", 13);
    case 15:
      return is("Concrete Inputs", 15);
    default:
      return false;
  }
}

std::size_t hash_op_args(std::span<const OpArg> args);

// The arguments of each distinct shape text (sets read without a malformed value only).
// Looked up once per operator event, with the JSON streaming through the caches: an
// open-addressed table of hashes beside one arena of texts, so that a lookup touches
// two places (a node-based map touched five).
class OpShapeCache {
 public:
  struct Entry {
    OpInputs inputs;
    std::int32_t interned = -1;  // the importer's index into Profile::op_inputs, once it kept one
  };
  Entry* find(const std::string& text);
  Entry* add(const std::string& text, OpInputs inputs);  // nullptr when full

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t entry = 0;  // index + 1; 0: empty
  };
  static std::uint64_t hash(const std::string& text);
  Slot* slot_for(std::uint64_t hash, const std::string& text);  // its entry's, or the empty one it would take

  std::vector<Slot> slots_;                                 // a power of two, at most half full
  std::string texts_;                                       // every entry's text, one after another
  std::vector<std::pair<std::size_t, std::size_t>> spans_;  // entry -> its text in texts_
  std::deque<Entry> entries_;                               // stable addresses
};

class OpShapeReader {
 public:
  static constexpr std::size_t kTailBytes = 16;  // a literal's check reads up to 5 bytes on

  void reset() {  // before each event
    cached_ = nullptr;
    applied_ = false;
    if (used_ > 0 || !pieces_.empty()) clear();
  }
  // The value after `key` (one of is_op_shape_key's): kept, or read in place where it is
  // not well-formed JSON. `event_name` and the cursor's offset go into the stat's example.
  void take(JsonCursor& cursor, std::string_view key, ImportStats& stats, const std::string& event_name);
  // The same for a value another reader found well-formed (as JsonCursor::raw_value would give it;
  // `at`: where the value was asked for).
  void take_raw(std::string_view key, std::uint64_t at, const JsonCursor::RawValue& raw);
  // After the event's args: finds the values taken in the cache, or parses (and caches) them.
  void finish(OpShapeCache& cache, const std::string& file, ImportStats& stats, const std::string& event_name) {
    if (!pieces_.empty()) apply_pending(&cache, file, stats, event_name);
  }

  bool empty() const { return args().empty(); }
  std::span<const OpArg> args() const;
  OpShapeCache::Entry* cached() const { return cached_; }
  // Copies cached arguments into this reader, for an event kept beyond the cache's life.
  void own();

 private:
  struct Piece {
    std::uint8_t key;
    std::uint64_t at;  // where the value was asked for (the stat's offset)
    std::uint64_t offset;
    std::size_t begin;  // the value's text in text_
    std::size_t size;
    char tail[kTailBytes];  // what followed it in the file
    std::size_t tail_size;
  };
  void clear();
  void keep(std::uint8_t key, std::uint64_t at, const JsonCursor::RawValue& raw);
  void apply_pending(OpShapeCache* cache, const std::string& file, ImportStats& stats, const std::string& event_name);
  void parse(JsonCursor& c, std::uint8_t key, std::uint64_t at, bool& clean, ImportStats& stats,
             const std::string& event_name);

  std::vector<OpArg> args_;
  std::size_t used_ = 0;
  OpShapeCache::Entry* cached_ = nullptr;  // when set, the arguments are the entry's
  bool applied_ = false;                   // values were applied before the pending ones
  std::string text_;                       // the pending values: key, length and text of each
  std::vector<Piece> pieces_;
};

}  // namespace cuprobe
