// The Kineto reader's JSON cursor alone, with a window of a few bytes (byte 0)
// refilled from reads of a few bytes (byte 1), so that nearly every token
// straddles a refill: the contract "a view stays valid until the next call"
// is checked by reading every byte of every view returned. The importer only
// meets this at its 4 MiB window's edge (kineto_window); here it is everywhere.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "import/byte_source.h"
#include "import/kineto_json/json_cursor.h"
#include "support/input_errors_only.h"

namespace {

using cuprobe::JsonCursor;

volatile unsigned g_sink;  // keeps the reads of each view

void touch(std::string_view view) {
  unsigned sum = 0;
  for (char c : view) sum += static_cast<unsigned char>(c);
  g_sink = sum;
}

void walk(JsonCursor& c, int depth) {
  char next = c.peek();
  if (depth > 64) {
    c.skip_value();
  } else if (next == '{') {
    c.expect('{');
    bool first = true;
    std::string_view key;
    while (c.next_key(key, first)) {
      touch(key);
      walk(c, depth + 1);
    }
  } else if (next == '[') {
    c.expect('[');
    bool first = true;
    while (c.next_element(first)) walk(c, depth + 1);
  } else if (next == '"') {
    touch(c.string());
  } else if (next == '-' || (next >= '0' && next <= '9')) {
    touch(c.number());
  } else {
    c.skip_value();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::size_t window = 1 + data[0] % 64;
  std::size_t read = 1 + data[1] % 16;
  auto source = cuprobe::memory_byte_source(std::string(reinterpret_cast<const char*>(data) + 2, size - 2), read);
  cuprobe::fuzz::input_errors_only([&] {
    JsonCursor cursor(*source, "input.json", window);
    walk(cursor, 0);
    if (!cursor.at_end()) cursor.fail("text after the document");
  });
  return 0;
}
