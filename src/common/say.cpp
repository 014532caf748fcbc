#include "common/say.h"

#include <cstdarg>
#include <cstdio>
#include <string>
#include <utility>

#include "common/secrets.h"

namespace cuprobe {

void say(std::string_view verb, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::va_list again;
  va_copy(again, args);
  int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text = "cuprobe " + std::string(verb) + ": ";
  std::size_t at = text.size();
  if (n > 0) {
    text.resize(at + static_cast<std::size_t>(n) + 1);
    std::vsnprintf(text.data() + at, static_cast<std::size_t>(n) + 1, format, again);
    text.resize(at + static_cast<std::size_t>(n));
  }
  va_end(again);
  if (text.back() != '\n') text += '\n';
  text = redact_secrets(std::move(text));
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace cuprobe
