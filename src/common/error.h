// The one error type that reaches the user: a single line and an exit code.
#pragma once

#include <stdexcept>
#include <string>

#include "common/exit_codes.h"
#include "common/utf8.h"

namespace cuprobe {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int exit_code = kExitFailed)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// Bad input in a file: "FILE: byte N: REASON", on one line with raw bytes escaped.
class InputError : public Error {
 public:
  InputError(const std::string& file, long long byte_offset, const std::string& reason)
      : Error(printable_one_line(file) + ": byte " + std::to_string(byte_offset) + ": " + printable_one_line(reason)) {}
  InputError(const std::string& file, const std::string& reason)
      : Error(printable_one_line(file) + ": " + printable_one_line(reason)) {}
};

}  // namespace cuprobe
