// The one error type that reaches the user: a single line and an exit code.
#pragma once

#include <stdexcept>
#include <string>

#include "common/exit_codes.h"

namespace cuprobe {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int exit_code = kExitFailed)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// Bad input in a file: "FILE: byte N: REASON".
class InputError : public Error {
 public:
  InputError(const std::string& file, long long byte_offset, const std::string& reason)
      : Error(file + ": byte " + std::to_string(byte_offset) + ": " + reason) {}
  InputError(const std::string& file, const std::string& reason) : Error(file + ": " + reason) {}
};

}  // namespace cuprobe
