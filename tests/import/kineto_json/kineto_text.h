// Kineto JSON held in a string, imported as a file would be: the helpers the
// importer's tests share.
#pragma once

#include <cstdint>
#include <string>

#include "common/error.h"
#include "import/kineto_json/kineto_importer.h"

namespace cuprobe::test {

// `max_read` caps each read of the byte source (to exercise short reads).
inline Profile import_kineto_text(const std::string& text, std::size_t max_read = SIZE_MAX) {
  auto source = memory_byte_source(text, max_read);
  return import_kineto_json(*source, "t.json");
}

// The importer's one-line error for `text`, or "no error".
inline std::string kineto_import_error(const std::string& text) {
  try {
    import_kineto_text(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace cuprobe::test
