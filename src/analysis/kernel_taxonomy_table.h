// The kernel taxonomy's rows and tokens (data in kernel_taxonomy_table.cpp,
// matching in kernel_taxonomy.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "analysis/kernel_taxonomy.h"

namespace cuprobe::taxonomy {

enum class Tc : std::uint8_t { kOpen, kYes, kNo };  // kOpen: decided by name tokens

struct RowPrecision {
  enum Mode : std::uint8_t { kFromName, kUnknown, kFixed };
  Mode mode = kFromName;
  Precision precision = Precision::kFp32;  // only for kFixed
};

struct Row {
  std::string_view pattern;  // see kernel_taxonomy_table.cpp for the syntax
  Category category;
  Tc tensor_core;
  RowPrecision precision = {};
};

struct Token {
  std::string_view text;  // lower case
  Precision precision;
  bool bounded = false;  // counts only when not preceded by a letter nor followed by a digit
};

struct MaskToken {
  std::string_view text;   // lower case
  std::string_view masks;  // a Token's text
};

struct TcToken {
  std::string_view text;  // lower case
  bool tensor_core;
};

std::span<const Row> rows();
std::span<const Token> precision_tokens();  // in precedence order
std::span<const MaskToken> mask_tokens();
std::span<const TcToken> tensor_core_tokens();

}  // namespace cuprobe::taxonomy
