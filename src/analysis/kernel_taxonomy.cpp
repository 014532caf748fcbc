// Matching for the kernel taxonomy. Every row pattern piece and every token
// goes into one case-insensitive Aho-Corasick automaton, so a name is read
// once whatever the table's size; the rows are then checked in order against
// the pieces seen.
#include "analysis/kernel_taxonomy.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "analysis/kernel_taxonomy_table.h"

namespace cuprobe {
namespace {

using taxonomy::Row;
using taxonomy::RowPrecision;
using taxonomy::Tc;

constexpr std::array<std::string_view, kCategoryCount> kCategoryNames = {
    "gemm",     "attention", "moe",    "communication", "copy_cast", "elementwise", "norm",      "reduction",
    "sampling", "memcpy",    "memset", "cuda_graph",    "conv",      "embedding",   "optimizer", "other"};

constexpr std::size_t kMaxPieces = 512;
constexpr std::size_t kMaxConditions = 3;

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

struct Condition {
  std::uint16_t piece;
  bool prefix;
};

struct CompiledRow {
  std::array<Condition, kMaxConditions> conditions{};
  std::uint8_t count = 0;
};

// What one pass over a name saw, per piece.
struct Hits {
  std::array<std::uint16_t, kMaxPieces> anywhere{};
  std::array<std::uint16_t, kMaxPieces> bounded{};  // occurrences passing the token boundary test
  std::array<bool, kMaxPieces> at_start{};
};

class Matcher {
 public:
  Matcher() {
    for (const Row& row : taxonomy::rows()) rows_.push_back(compile_row(row.pattern));
    for (const auto& t : taxonomy::precision_tokens()) precision_pieces_.push_back(add_piece(t.text));
    for (const auto& t : taxonomy::mask_tokens()) {
      mask_pieces_.push_back({add_piece(t.text), add_piece(t.masks)});
    }
    for (const auto& t : taxonomy::tensor_core_tokens()) tc_pieces_.push_back(add_piece(t.text));
    build_automaton();
  }

  KernelClass classify(std::string_view name) const {
    if (name.starts_with("void ")) name.remove_prefix(5);
    Hits hits;
    scan(name, hits);

    const auto table = taxonomy::rows();
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      if (!row_matches(rows_[r], hits)) continue;
      const Row& row = table[r];
      KernelClass k;
      k.category = row.category;
      k.rule = row.pattern;
      k.decided_by = CategorySource::kName;
      k.tensor_core = row.tensor_core == Tc::kYes  ? std::optional<bool>(true)
                      : row.tensor_core == Tc::kNo ? std::optional<bool>(false)
                                                   : tensor_core_from_tokens(hits);
      switch (row.precision.mode) {
        case RowPrecision::kFixed:
          k.precision = row.precision.precision;
          break;
        case RowPrecision::kUnknown:
          break;
        case RowPrecision::kFromName:
          k.precision = precision_from_tokens(hits);
          break;
      }
      return k;
    }
    return KernelClass{};
  }

 private:
  std::uint16_t add_piece(std::string_view text) {
    std::string key;
    for (char c : text) key.push_back(lower(c));
    if (key.empty()) throw std::logic_error("kernel taxonomy: empty pattern piece");
    auto [it, inserted] = piece_ids_.try_emplace(key, static_cast<std::uint16_t>(pieces_.size()));
    if (inserted) {
      if (pieces_.size() >= kMaxPieces) throw std::logic_error("kernel taxonomy: too many pieces");
      pieces_.push_back(key);
    }
    return it->second;
  }

  CompiledRow compile_row(std::string_view pattern) {
    CompiledRow row;
    while (true) {
      std::size_t amp = pattern.find('&');
      std::string_view piece = pattern.substr(0, amp);
      if (row.count == kMaxConditions) throw std::logic_error("kernel taxonomy: too many '&'");
      bool prefix = piece.starts_with('^');
      if (prefix) piece.remove_prefix(1);
      row.conditions[row.count++] = {add_piece(piece), prefix};
      if (amp == std::string_view::npos) break;
      pattern.remove_prefix(amp + 1);
    }
    return row;
  }

  void build_automaton() {
    // Character classes: one per distinct (lower-cased) character in any piece, 0 for the rest.
    class_of_.fill(0);
    for (const std::string& p : pieces_) {
      for (char c : p) {
        auto& cls = class_of_[static_cast<unsigned char>(c)];
        if (cls == 0) cls = ++class_count_;
      }
    }
    ++class_count_;
    for (int c = 'A'; c <= 'Z'; ++c) class_of_[c] = class_of_[c - 'A' + 'a'];

    // Trie.
    std::vector<std::int32_t> go(class_count_, -1);
    std::vector<std::vector<std::uint16_t>> out(1);
    for (std::size_t id = 0; id < pieces_.size(); ++id) {
      std::size_t s = 0;
      for (char c : pieces_[id]) {
        std::int32_t& next = go[s * class_count_ + class_of_[static_cast<unsigned char>(c)]];
        if (next < 0) {
          next = static_cast<std::int32_t>(out.size());
          out.emplace_back();
          go.resize(out.size() * class_count_, -1);
        }
        s = static_cast<std::size_t>(go[s * class_count_ + class_of_[static_cast<unsigned char>(c)]]);
      }
      out[s].push_back(static_cast<std::uint16_t>(id));
      piece_length_.push_back(static_cast<std::uint16_t>(pieces_[id].size()));
      longest_piece_ = std::max(longest_piece_, pieces_[id].size());
    }

    // Failure links, breadth first, turning the trie into a full transition table.
    const std::size_t states = out.size();
    if (states > 0xFFFF || states * class_count_ >= kHasOutput) {
      throw std::logic_error("kernel taxonomy: automaton too large");
    }
    std::vector<std::uint16_t> next_state(states * class_count_, 0);
    std::vector<std::uint16_t> fail(states, 0);
    std::vector<std::uint16_t> queue;
    for (std::size_t c = 0; c < class_count_; ++c) {
      if (go[c] >= 0) {
        next_state[c] = static_cast<std::uint16_t>(go[c]);
        queue.push_back(static_cast<std::uint16_t>(go[c]));
      }
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      std::uint16_t s = queue[head];
      const auto& inherited = out[fail[s]];
      out[s].insert(out[s].end(), inherited.begin(), inherited.end());
      for (std::size_t c = 0; c < class_count_; ++c) {
        std::int32_t next = go[s * class_count_ + c];
        if (next >= 0) {
          fail[next] = next_state[fail[s] * class_count_ + c];
          next_state[s * class_count_ + c] = static_cast<std::uint16_t>(next);
          queue.push_back(static_cast<std::uint16_t>(next));
        } else {
          next_state[s * class_count_ + c] = next_state[fail[s] * class_count_ + c];
        }
      }
    }
    out_begin_.reserve(states + 1);
    for (const auto& o : out) {
      out_begin_.push_back(static_cast<std::uint32_t>(out_pieces_.size()));
      out_pieces_.insert(out_pieces_.end(), o.begin(), o.end());
    }
    out_begin_.push_back(static_cast<std::uint32_t>(out_pieces_.size()));

    // The scan's table: each entry is the next state's row offset, flagged when that
    // state completes a piece (no multiply, no output lookup on the common path).
    delta_.resize(next_state.size());
    for (std::size_t e = 0; e < next_state.size(); ++e) {
      std::uint32_t t = next_state[e];
      delta_[e] = static_cast<std::uint32_t>(t * class_count_) | (out[t].empty() ? 0 : kHasOutput);
    }
  }

  // Long names are cut into kLanes stretches walked side by side: one walk is a chain of
  // dependent loads, several interleaved ones overlap their latencies. A lane starts
  // longest_piece_ - 1 bytes before its stretch (so it is in step when the stretch
  // begins) and records only the matches ending inside it: each match counts once.
  void scan(std::string_view name, Hits& hits) const {
    constexpr std::size_t kLanes = 4;
    const std::size_t n = name.size();
    const std::size_t lead = longest_piece_ - 1;
    if (n < kLanes * 4 * longest_piece_) {
      std::uint32_t row = 0;
      for (std::size_t i = 0; i < n; ++i) step(name, i, row, hits);
      return;
    }
    std::array<std::size_t, kLanes + 1> bound{};
    for (std::size_t k = 0; k <= kLanes; ++k) bound[k] = n * k / kLanes;
    std::array<std::uint32_t, kLanes> row{};
    std::array<std::size_t, kLanes> pos{};
    for (std::size_t k = 1; k < kLanes; ++k) {
      pos[k] = bound[k] - lead;
      for (; pos[k] < bound[k]; ++pos[k]) row[k] = walk(name, pos[k], row[k]) & ~kHasOutput;
    }
    // Every lane now has at least the shortest stretch's length left.
    const std::size_t common = n / kLanes;
    for (std::size_t t = 0; t < common; ++t) {
      for (std::size_t k = 0; k < kLanes; ++k) step(name, pos[k]++, row[k], hits);
    }
    for (std::size_t k = 0; k < kLanes; ++k) {
      for (; pos[k] < bound[k + 1]; ++pos[k]) step(name, pos[k], row[k], hits);
    }
  }

  std::uint32_t walk(std::string_view name, std::size_t i, std::uint32_t row) const {
    return delta_[row + class_of_[static_cast<unsigned char>(name[i])]];
  }

  // Advances one byte (name[i]) and records the pieces that end there.
  void step(std::string_view name, std::size_t i, std::uint32_t& row, Hits& hits) const {
    std::uint32_t next = walk(name, i, row);
    row = next & ~kHasOutput;
    if ((next & kHasOutput) == 0) return;
    std::size_t s = row / class_count_;
    for (std::uint32_t o = out_begin_[s]; o < out_begin_[s + 1]; ++o) {
      std::uint16_t p = out_pieces_[o];
      std::size_t start = i + 1 - piece_length_[p];
      if (hits.anywhere[p] < 0xFFFF) ++hits.anywhere[p];
      if (start == 0) hits.at_start[p] = true;
      bool bounded = (start == 0 || !is_letter(name[start - 1])) && (i + 1 == name.size() || !is_digit(name[i + 1]));
      if (bounded && hits.bounded[p] < 0xFFFF) ++hits.bounded[p];
    }
  }

  static bool row_matches(const CompiledRow& row, const Hits& hits) {
    for (std::uint8_t i = 0; i < row.count; ++i) {
      const Condition& c = row.conditions[i];
      if (c.prefix ? !hits.at_start[c.piece] : hits.anywhere[c.piece] == 0) return false;
    }
    return true;
  }

  std::optional<Precision> precision_from_tokens(const Hits& hits) const {
    const auto tokens = taxonomy::precision_tokens();
    std::optional<Precision> best;
    std::size_t best_rank = tokens.size();
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      std::uint16_t piece = precision_pieces_[t];
      int count = tokens[t].bounded ? hits.bounded[piece] : hits.anywhere[piece];
      for (const auto& [mask, masked] : mask_pieces_) {
        if (masked == piece) count -= hits.anywhere[mask];
      }
      if (count > 0 && t < best_rank) {
        best_rank = t;
        best = tokens[t].precision;
      }
    }
    return best;
  }

  std::optional<bool> tensor_core_from_tokens(const Hits& hits) const {
    bool yes = false;
    bool no = false;
    const auto tokens = taxonomy::tensor_core_tokens();
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      if (hits.anywhere[tc_pieces_[t]] == 0) continue;
      (tokens[t].tensor_core ? yes : no) = true;
    }
    if (yes == no) return std::nullopt;  // neither, or contradicting tokens
    return yes;
  }

  std::vector<std::string> pieces_;
  std::unordered_map<std::string, std::uint16_t> piece_ids_;
  std::vector<std::uint16_t> piece_length_;
  std::size_t longest_piece_ = 1;
  std::vector<CompiledRow> rows_;
  std::vector<std::uint16_t> precision_pieces_;
  std::vector<std::pair<std::uint16_t, std::uint16_t>> mask_pieces_;  // (mask, masked)
  std::vector<std::uint16_t> tc_pieces_;

  std::array<std::uint8_t, 256> class_of_{};
  std::size_t class_count_ = 0;
  static constexpr std::uint32_t kHasOutput = 0x80000000u;
  std::vector<std::uint32_t> delta_;  // row offset (state * class_count_) + class -> next entry
  std::vector<std::uint32_t> out_begin_;
  std::vector<std::uint16_t> out_pieces_;
};

const Matcher& matcher() {
  static const Matcher m;
  return m;
}

}  // namespace

std::string_view category_name(Category c) {
  auto i = static_cast<std::size_t>(c);
  return i < kCategoryNames.size() ? kCategoryNames[i] : "other";
}

std::optional<Category> parse_category(std::string_view name) {
  for (std::size_t i = 0; i < kCategoryNames.size(); ++i) {
    if (kCategoryNames[i] == name) return static_cast<Category>(i);
  }
  return std::nullopt;
}

std::string_view category_source_name(CategorySource s) {
  switch (s) {
    case CategorySource::kName:
      return "name";
    case CategorySource::kKind:
      return "kind";
    case CategorySource::kLaunchOp:
      return "launch_op";
    case CategorySource::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::kFp4:
      return "fp4";
    case Precision::kFp8:
      return "fp8";
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp16:
      return "fp16";
    case Precision::kTf32:
      return "tf32";
    case Precision::kFp32:
      return "fp32";
    case Precision::kInt8:
      return "int8";
  }
  return "unknown";
}

KernelClass classify_kernel(std::string_view kernel_name) { return matcher().classify(kernel_name); }

std::vector<std::string_view> kernel_taxonomy_patterns() {
  std::vector<std::string_view> out;
  for (const Row& row : taxonomy::rows()) out.push_back(row.pattern);
  return out;
}

}  // namespace cuprobe
