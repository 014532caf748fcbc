#include "import/kineto_json/op_shapes.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "import/kineto_json/timestamp.h"

namespace cuprobe {
namespace {

enum class ShapeKey : std::uint8_t { kDims, kStrides, kType, kConcrete, kNone };

constexpr std::string_view kKeyNames[] = {"Input Dims", "Input Strides", "Input type", "Concrete Inputs"};

// Distinct sets a cache holds at most: beyond, a new set is parsed every time it is met.
constexpr std::size_t kMaxCachedSets = std::size_t{1} << 16;

// One of is_op_shape_key's keys.
ShapeKey shape_key(std::string_view key) {
  switch (key.size()) {
    case 10:
      return key[6] == 'D' ? ShapeKey::kDims : ShapeKey::kType;
    case 13:
      return ShapeKey::kStrides;
    default:
      return ShapeKey::kConcrete;
  }
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

namespace {

void mix(std::size_t& h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }

void mix_dims(std::size_t& h, const std::vector<std::int64_t>& dims) {
  mix(h, dims.size());
  for (auto d : dims) mix(h, std::hash<std::int64_t>{}(d));
}

}  // namespace

std::size_t hash_op_args(std::span<const OpArg> args) {
  std::size_t h = args.size();
  for (const OpArg& a : args) {
    mix(h, std::hash<std::string_view>{}(a.type));
    mix(h, std::hash<std::string_view>{}(a.concrete));
    mix_dims(h, a.dims);
    mix_dims(h, a.strides);
    mix(h, a.list_dims.size());
    for (const auto& l : a.list_dims) mix_dims(h, l);
  }
  return h;
}

std::uint64_t OpShapeCache::hash(const std::string& text) {
  constexpr std::uint64_t kMul = 0x9e3779b97f4a7c15ull;
  std::uint64_t h = text.size() * kMul;
  const char* p = text.data();
  std::size_t n = text.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (((h << 5) | (h >> 59)) ^ w) * kMul;
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (((h << 5) | (h >> 59)) ^ w) * kMul;
  }
  return h ^ (h >> 32);
}

OpShapeCache::Slot* OpShapeCache::slot_for(std::uint64_t h, const std::string& text) {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.entry == 0) return &s;
    if (s.hash != h) continue;
    auto [begin, size] = spans_[s.entry - 1];
    if (size == text.size() && std::memcmp(texts_.data() + begin, text.data(), size) == 0) return &s;
  }
}

OpShapeCache::Entry* OpShapeCache::find(const std::string& text) {
  if (slots_.empty()) return nullptr;
  Slot* s = slot_for(hash(text), text);
  return s->entry ? &entries_[s->entry - 1] : nullptr;
}

OpShapeCache::Entry* OpShapeCache::add(const std::string& text, OpInputs inputs) {
  if (entries_.size() >= kMaxCachedSets) return nullptr;
  if (2 * (entries_.size() + 1) > slots_.size()) {
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(std::max<std::size_t>(1024, 2 * slots_.size())));
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.entry == 0) continue;
      std::size_t i = s.hash & mask;
      while (slots_[i].entry != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::uint64_t h = hash(text);
  Slot* s = slot_for(h, text);
  if (s->entry) return &entries_[s->entry - 1];
  spans_.emplace_back(texts_.size(), text.size());
  texts_ += text;
  entries_.push_back(Entry{std::move(inputs), -1});
  *s = Slot{h, static_cast<std::uint32_t>(entries_.size())};
  return &entries_.back();
}

void OpShapeReader::clear() {
  for (std::size_t i = 0; i < used_; ++i) {
    OpArg& a = args_[i];
    a.type.clear();
    a.dims.clear();
    a.strides.clear();
    a.list_dims.clear();
    a.concrete.clear();
  }
  used_ = 0;
  text_.clear();
  pieces_.clear();
}

std::span<const OpArg> OpShapeReader::args() const {
  if (cached_) return cached_->inputs.args;
  return {args_.data(), used_};
}

void OpShapeReader::own() {
  if (!cached_) return;
  const auto& kept = cached_->inputs.args;
  if (args_.size() < kept.size()) args_.resize(kept.size());
  std::copy(kept.begin(), kept.end(), args_.begin());
  used_ = kept.size();
  cached_ = nullptr;
}

void OpShapeReader::take(JsonCursor& c, std::string_view key, ImportStats& stats, const std::string& event_name) {
  auto which = static_cast<std::uint8_t>(shape_key(key));
  std::uint64_t at = c.offset();
  auto raw = c.raw_value(kTailBytes);
  if (!raw) {  // not well-formed: read in place, after what came before it
    apply_pending(nullptr, c.file_name(), stats, event_name);
    own();
    bool clean = true;
    parse(c, which, at, clean, stats, event_name);
    applied_ = true;
    return;
  }
  keep(which, at, *raw);
}

void OpShapeReader::take_raw(std::string_view key, std::uint64_t at, const JsonCursor::RawValue& raw) {
  keep(static_cast<std::uint8_t>(shape_key(key)), at, raw);
}

void OpShapeReader::keep(std::uint8_t which, std::uint64_t at, const JsonCursor::RawValue& raw) {
  // The cache's key: each value's key, length and text.
  char header[5] = {static_cast<char>(which)};
  auto size = static_cast<std::uint32_t>(raw.size);
  std::memcpy(header + 1, &size, sizeof size);
  text_.append(header, sizeof header);
  Piece& p = pieces_.emplace_back();
  p.key = which;
  p.at = at;
  p.offset = raw.offset;
  p.begin = text_.size();
  p.size = raw.size;
  text_.append(raw.text.data(), raw.size);
  p.tail_size = raw.text.size() - raw.size;
  if (p.tail_size == kTailBytes)
    std::memcpy(p.tail, raw.text.data() + raw.size, kTailBytes);
  else
    std::memcpy(p.tail, raw.text.data() + raw.size, p.tail_size);
}

void OpShapeReader::apply_pending(OpShapeCache* cache, const std::string& file, ImportStats& stats,
                                  const std::string& event_name) {
  if (pieces_.empty()) return;
  // The cache maps a whole event's values to their arguments: only for values applied to none before.
  bool cacheable = cache && !applied_;
  if (cacheable) {
    if (OpShapeCache::Entry* e = cache->find(text_)) {
      cached_ = e;
      applied_ = true;
      text_.clear();
      pieces_.clear();
      return;
    }
  }
  own();
  bool clean = true;
  std::string value;
  for (const Piece& p : pieces_) {
    value.assign(text_, p.begin, p.size);
    value.append(p.tail, p.tail_size);
    auto source = memory_byte_source(value);
    JsonCursor c(*source, file, std::max<std::size_t>(value.size(), 64), p.offset);
    parse(c, p.key, p.at, clean, stats, event_name);
  }
  if (cacheable && clean)
    cached_ = cache->add(text_, OpInputs{{args_.begin(), args_.begin() + static_cast<std::ptrdiff_t>(used_)}});
  applied_ = true;
  text_.clear();
  pieces_.clear();
}

void OpShapeReader::parse(JsonCursor& c, std::uint8_t key, std::uint64_t at, bool& clean, ImportStats& stats,
                          const std::string& event_name) {
  auto which = static_cast<ShapeKey>(key);
  auto malformed = [&] {
    clean = false;
    stats.add(ImportStat::kOpShapeMalformed, event_name + " (args." + std::string(kKeyNames[key]) + ")", at);
  };
  if (c.peek() != '[') {
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

}  // namespace cuprobe
