#include "import/kineto_json/op_shapes.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "import/kineto_json/timestamp.h"

namespace cuprobe {
namespace {

enum class ShapeKey : std::uint8_t { kDims, kStrides, kType, kConcrete, kNone };

ShapeKey shape_key(std::string_view key) {
  if (key == "Input Dims") return ShapeKey::kDims;
  if (key == "Input Strides") return ShapeKey::kStrides;
  if (key == "Input type") return ShapeKey::kType;
  if (key == "Concrete Inputs") return ShapeKey::kConcrete;
  return ShapeKey::kNone;
}

// [1, 2, 3]: false (the rest of the array skipped) at anything but integers.
bool read_int_list(JsonCursor& c, std::vector<std::int64_t>& out) {
  c.expect('[');
  bool first = true;
  bool ok = true;
  while (c.next_element(first)) {
    char p = c.peek();
    if (ok && (p == '-' || (p >= '0' && p <= '9'))) {
      if (auto v = integer_text(c.number())) {
        out.push_back(*v);
        continue;
      }
      ok = false;
      continue;
    }
    ok = false;
    c.skip_value();
  }
  return ok;
}

// One argument's sizes: [] or [4, 96] for a tensor or scalar, [[4, 96], [8]] for a TensorList.
bool read_arg_dims(JsonCursor& c, std::vector<std::int64_t>& dims, std::vector<std::vector<std::int64_t>>* lists) {
  if (c.peek() != '[') {
    c.skip_value();
    return false;
  }
  c.expect('[');
  bool first = true;
  bool ok = true;
  bool is_list = false;
  while (c.next_element(first)) {
    char p = c.peek();
    if (p == '[') {
      is_list = true;
      std::vector<std::int64_t> inner;
      ok = read_int_list(c, inner) && ok;
      if (lists) lists->push_back(std::move(inner));
    } else if (p == '-' || (p >= '0' && p <= '9')) {
      auto v = integer_text(c.number());
      if (v)
        dims.push_back(*v);
      else
        ok = false;
    } else {
      c.skip_value();
      ok = false;
    }
  }
  return ok && !(is_list && !dims.empty());  // a mix of numbers and lists is no shape
}

}  // namespace

bool is_op_shape_key(std::string_view key) { return shape_key(key) != ShapeKey::kNone; }

void OpShapeReader::reset() {
  for (std::size_t i = 0; i < used_; ++i) {
    OpArg& a = args_[i];
    a.type.clear();
    a.dims.clear();
    a.strides.clear();
    a.list_dims.clear();
    a.concrete.clear();
  }
  used_ = 0;
}

void OpShapeReader::read(JsonCursor& c, std::string_view key, ImportStats& stats, const std::string& event_name) {
  ShapeKey which = shape_key(key);
  std::uint64_t at = c.offset();
  std::string what(key);
  auto malformed = [&] { stats.add(ImportStat::kOpShapeMalformed, event_name + " (args." + what + ")", at); };
  if (which == ShapeKey::kNone || c.peek() != '[') {
    c.skip_value();
    malformed();
    return;
  }
  c.expect('[');
  bool first = true;
  bool ok = true;
  std::size_t i = 0;
  while (c.next_element(first)) {
    if (args_.size() <= i) args_.resize(i + 1);
    used_ = std::max(used_, i + 1);
    OpArg& arg = args_[i++];
    switch (which) {
      case ShapeKey::kDims:
        arg.dims.clear();
        arg.list_dims.clear();
        ok = read_arg_dims(c, arg.dims, &arg.list_dims) && ok;
        break;
      case ShapeKey::kStrides:
        arg.strides.clear();
        ok = read_arg_dims(c, arg.strides, nullptr) && ok;
        break;
      case ShapeKey::kType:
      case ShapeKey::kConcrete: {
        std::string& field = which == ShapeKey::kType ? arg.type : arg.concrete;
        if (c.peek() == '"') {
          field.assign(c.string());
        } else {
          c.skip_value();
          ok = false;
        }
        break;
      }
      case ShapeKey::kNone:
        break;
    }
  }
  if (!ok) malformed();
}

namespace {

void mix(std::size_t& h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }

void mix_dims(std::size_t& h, const std::vector<std::int64_t>& dims) {
  mix(h, dims.size());
  for (auto d : dims) mix(h, std::hash<std::int64_t>{}(d));
}

}  // namespace

std::size_t OpShapeReader::hash() const {
  std::size_t h = used_;
  for (std::size_t i = 0; i < used_; ++i) {
    const OpArg& a = args_[i];
    mix(h, std::hash<std::string_view>{}(a.type));
    mix(h, std::hash<std::string_view>{}(a.concrete));
    mix_dims(h, a.dims);
    mix_dims(h, a.strides);
    mix(h, a.list_dims.size());
    for (const auto& l : a.list_dims) mix_dims(h, l);
  }
  return h;
}

bool OpShapeReader::same_as(const OpInputs& kept) const {
  return kept.args.size() == used_ && std::equal(kept.args.begin(), kept.args.end(), args_.begin());
}

OpInputs OpShapeReader::copy() const {
  return OpInputs{std::vector<OpArg>(args_.begin(), args_.begin() + static_cast<std::ptrdiff_t>(used_))};
}

}  // namespace cuprobe
