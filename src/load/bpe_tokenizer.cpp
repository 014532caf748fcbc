#include "load/bpe_tokenizer.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "load/dataset_file.h"
#include "load/unicode_classes.h"

namespace cuprobe {
namespace {

enum class CharClass { kLetter, kNumber, kSpace, kNewline, kOther };

// One UTF-8 character at text[i]: its length and code point (a bad byte is one character).
std::size_t decode(const std::string& text, std::size_t i, char32_t& cp) {
  auto b = static_cast<unsigned char>(text[i]);
  std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
  if (i + n > text.size()) n = 1;
  cp = n == 1 ? b : (b & (0x7F >> n));
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  return n;
}

CharClass class_of(char32_t c) {
  if (c == '\n' || c == '\r') return CharClass::kNewline;
  if (is_unicode_space(c)) return CharClass::kSpace;
  if (is_unicode_number(c)) return CharClass::kNumber;
  if (is_unicode_letter(c)) return CharClass::kLetter;
  return CharClass::kOther;  // punctuation, symbols, marks, controls
}

struct Chars {
  std::vector<std::size_t> start;  // byte offset of each character, plus the end
  std::vector<CharClass> cls;
  std::vector<char32_t> cp;
};

Chars split_chars(const std::string& text) {
  Chars c;
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp;
    std::size_t n = decode(text, i, cp);
    c.start.push_back(i);
    c.cls.push_back(class_of(cp));
    c.cp.push_back(cp);
    i += n;
  }
  c.start.push_back(text.size());
  return c;
}

bool is_space(CharClass k) { return k == CharClass::kSpace || k == CharClass::kNewline; }

// Length in characters of a contraction ('s 't 're 've 'm 'll 'd) at i, else 0.
std::size_t contraction(const Chars& c, std::size_t i, bool any_case) {
  std::size_t n = c.cls.size();
  if (c.cp[i] != '\'' || i + 1 >= n) return 0;
  auto low = [&](std::size_t k) -> char32_t {
    char32_t x = c.cp[k];
    return any_case && x >= 'A' && x <= 'Z' ? x + 32 : x;
  };
  char32_t a = low(i + 1);
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
  if (i + 2 < n) {
    char32_t b = low(i + 2);
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
  }
  return 0;
}

// The end (in characters) of the pre-token that starts at i.
std::size_t next_piece(const Chars& c, std::size_t i, SplitPattern p) {
  const std::size_t n = c.cls.size();
  auto run = [&](std::size_t k, auto pred) {
    while (k < n && pred(c.cls[k])) ++k;
    return k;
  };
  auto letter = [](CharClass k) { return k == CharClass::kLetter; };
  auto other = [](CharClass k) { return k == CharClass::kOther; };
  bool llama = p != SplitPattern::kGpt2;  // Llama 3 and Qwen 2 differ only in digit runs
  if (std::size_t len = contraction(c, i, llama)) return i + len;
  CharClass k = c.cls[i];
  // Letters, with one leading space (GPT-2) or one leading non-letter, non-digit, non-newline (Llama 3).
  if (k == CharClass::kLetter) return run(i, letter);
  bool prefix = llama ? (k == CharClass::kSpace || k == CharClass::kOther) : c.cp[i] == ' ';
  if (prefix && i + 1 < n && c.cls[i + 1] == CharClass::kLetter) return run(i + 1, letter);
  if (k == CharClass::kNumber) {
    std::size_t end = run(i, [](CharClass x) { return x == CharClass::kNumber; });
    return p == SplitPattern::kGpt2 ? end : std::min(end, i + (p == SplitPattern::kLlama3 ? 3 : 1));
  }
  if (!llama && c.cp[i] == ' ' && i + 1 < n && c.cls[i + 1] == CharClass::kNumber) {
    return run(i + 1, [](CharClass x) { return x == CharClass::kNumber; });
  }
  // Punctuation and symbols, with one leading space; Llama 3 takes newlines after them.
  std::size_t from = k == CharClass::kOther ? i : (c.cp[i] == ' ' && i + 1 < n && other(c.cls[i + 1]) ? i + 1 : n);
  if (from < n) {
    std::size_t end = run(from, other);
    if (llama) end = run(end, [](CharClass x) { return x == CharClass::kNewline; });
    return end;
  }
  // White space.
  std::size_t end = run(i, is_space);
  if (llama) {  // \s*[\r\n]+ : up to the last newline of the run
    std::size_t last_newline = n;
    for (std::size_t j = i; j < end; ++j) {
      if (c.cls[j] == CharClass::kNewline) last_newline = j;
    }
    if (last_newline != n) return last_newline + 1;
  }
  // \s+(?!\S): leave the last space for the word that follows.
  if (end < n && end - i > 1) return end - 1;
  return end;
}

// GPT-2's bytes_to_unicode: printable bytes stand for themselves, the others for 256 + n.
void byte_table(std::string (&out)[256]) {
  int extra = 0;
  for (int b = 0; b < 256; ++b) {
    bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    char32_t cp = printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + extra++);
    std::string s;
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    out[b] = s;
  }
}

// Sequences nested deeper than this are refused (real tokenizers nest one or two; issue 39: 200k deep
// overflowed the stack).
// A field read as the type tokenizer.json gives it: absent gives the fallback, another type is one InputError
// naming the field (nlohmann's own value() would throw its type_error instead).
std::string string_field(const nlohmann::json& node, const char* key, const std::string& path, const char* where) {
  auto it = node.find(key);
  if (it == node.end() || it->is_null()) return {};
  if (!it->is_string()) throw InputError(path, std::string(where) + "." + key + " is not a string");
  return it->get<std::string>();
}

bool bool_field(const nlohmann::json& node, const char* key, const std::string& path, const char* where) {
  auto it = node.find(key);
  if (it == node.end() || it->is_null()) return false;
  if (!it->is_boolean()) throw InputError(path, std::string(where) + "." + key + " is not true or false");
  return it->get<bool>();
}

constexpr int kMaxPreTokenizerDepth = 32;

// Does a pre-tokenizer (or one in a Sequence) have this type? Throws InputError past kMaxPreTokenizerDepth.
bool has_type(const nlohmann::json& node, const char* type, const nlohmann::json** found, const std::string& path,
              int depth = 0) {
  if (!node.is_object()) return false;
  if (depth > kMaxPreTokenizerDepth) {
    throw InputError(path, "pre_tokenizer: Sequences nested deeper than " + std::to_string(kMaxPreTokenizerDepth) +
                               " levels (not a tokenizer.json a library wrote)");
  }
  if (string_field(node, "type", path, "pre_tokenizer") == type) {
    *found = &node;
    return true;
  }
  if (auto it = node.find("pretokenizers"); it != node.end() && it->is_array()) {
    for (const auto& child : *it) {
      if (has_type(child, type, found, path, depth + 1)) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> pretokenize(const std::string& text, SplitPattern pattern) {
  Chars c = split_chars(text);
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < c.cls.size();) {
    std::size_t end = std::max(next_piece(c, i, pattern), i + 1);
    pieces.push_back(text.substr(c.start[i], c.start[end] - c.start[i]));
    i = end;
  }
  return pieces;
}

std::unique_ptr<BpeTokenCounter> BpeTokenCounter::load(const std::string& path) {
  nlohmann::json doc = DatasetFile(path).parse_json();  // bounded; a device refused; errors name the byte
  if (!doc.is_object()) throw InputError(path, "not a tokenizer.json (not a JSON object)");
  const nlohmann::json& model = doc.contains("model") ? doc["model"] : nlohmann::json();
  if (!model.is_object() || string_field(model, "type", path, "model") != "BPE") {
    throw InputError(path, "only BPE tokenizers are read (model.type is not \"BPE\")");
  }
  const nlohmann::json* byte_level = nullptr;
  if (!doc.contains("pre_tokenizer") || !has_type(doc["pre_tokenizer"], "ByteLevel", &byte_level, path)) {
    throw InputError(path,
                     "only byte-level BPE tokenizers are read (no ByteLevel pre-tokenizer); use the server's "
                     "/tokenize");
  }
  auto counter = std::unique_ptr<BpeTokenCounter>(new BpeTokenCounter());
  counter->path_ = path;
  counter->add_prefix_space_ = bool_field(*byte_level, "add_prefix_space", path, "pre_tokenizer");
  counter->ignore_merges_ = bool_field(model, "ignore_merges", path, "model");
  const nlohmann::json* split = nullptr;
  if (has_type(doc["pre_tokenizer"], "Split", &split, path)) {
    const nlohmann::json& pattern = split->contains("pattern") ? split->at("pattern") : nlohmann::json();
    std::string regex =
        pattern.is_object() ? string_field(pattern, "Regex", path, "pre_tokenizer.pattern") : std::string();
    if (regex.find("p{N}{1,3}") != std::string::npos) {
      counter->pattern_ = SplitPattern::kLlama3;
    } else if (regex.find("(?i:") != std::string::npos) {
      counter->pattern_ = SplitPattern::kQwen2;
    }
  }
  const nlohmann::json& vocab = model.contains("vocab") ? model["vocab"] : nlohmann::json();
  const nlohmann::json& merges = model.contains("merges") ? model["merges"] : nlohmann::json();
  if (!vocab.is_object() || !merges.is_array()) throw InputError(path, "model.vocab or model.merges is missing");
  for (const auto& [token, id] : vocab.items()) {
    if (id.is_number_integer()) counter->vocab_[token] = id.get<std::int64_t>();
  }
  std::int64_t rank = 0;
  for (const auto& m : merges) {
    if (m.is_string()) {
      counter->ranks_.emplace(m.get<std::string>(), rank);
    } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
      counter->ranks_.emplace(m[0].get<std::string>() + " " + m[1].get<std::string>(), rank);
    } else {
      throw InputError(path, "model.merges[" + std::to_string(rank) + "] is neither \"a b\" nor [\"a\", \"b\"]");
    }
    ++rank;
  }
  byte_table(counter->byte_chars_);
  return counter;
}

const std::vector<std::int64_t>& BpeTokenCounter::encode_word(const std::string& word) {
  if (auto it = cache_.find(word); it != cache_.end()) return it->second;
  if (cache_.size() >= 1'000'000) cache_.clear();
  std::vector<std::string> parts;
  std::string mapped;
  for (char ch : word) {
    parts.push_back(byte_chars_[static_cast<unsigned char>(ch)]);
    mapped += parts.back();
  }
  std::vector<std::int64_t>& ids = cache_[word];
  if (auto whole = vocab_.find(mapped); ignore_merges_ && whole != vocab_.end()) {
    ids.push_back(whole->second);
    return ids;
  }
  while (parts.size() > 1) {
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      auto it = ranks_.find(parts[i] + " " + parts[i + 1]);
      if (it != ranks_.end() && it->second < best) {
        best = it->second;
        at = i;
      }
    }
    if (best == std::numeric_limits<std::int64_t>::max()) break;
    // Merge every occurrence of the pair, left to right.
    std::string left = parts[at], right = parts[at + 1];
    std::vector<std::string> merged;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i + 1 < parts.size() && parts[i] == left && parts[i + 1] == right) {
        merged.push_back(left + right);
        ++i;
      } else {
        merged.push_back(parts[i]);
      }
    }
    parts = std::move(merged);
  }
  for (const std::string& part : parts) {
    auto it = vocab_.find(part);
    ids.push_back(it == vocab_.end() ? -1 : it->second);
  }
  return ids;
}

std::vector<std::int64_t> BpeTokenCounter::encode(const std::string& text) {
  std::string input = add_prefix_space_ && !text.empty() && text[0] != ' ' ? " " + text : text;
  std::vector<std::int64_t> ids;
  for (const std::string& piece : pretokenize(input, pattern_)) {
    const std::vector<std::int64_t>& word = encode_word(piece);
    ids.insert(ids.end(), word.begin(), word.end());
  }
  return ids;
}

std::int64_t BpeTokenCounter::count(const std::string& text) { return static_cast<std::int64_t>(encode(text).size()); }

}  // namespace cuprobe
