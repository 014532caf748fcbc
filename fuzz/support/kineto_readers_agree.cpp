#include "support/kineto_readers_agree.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/error.h"
#include "import/byte_source.h"
#include "import/kineto_json/kineto_importer.h"

namespace cuprobe::fuzz {
namespace {

std::string outcome(std::string_view text, KinetoReader reader) {
  try {
    auto source = memory_byte_source(std::string(text));
    Profile p = import_kineto_json(*source, "t.json", reader);
    std::string out = "events " + std::to_string(p.stats.events) + " gpu " + std::to_string(p.gpu.size()) + " cpu " +
                      std::to_string(p.cpu.size()) + " counters " + std::to_string(p.counters.size()) + " unkept " +
                      std::to_string(p.unkept_starts.size()) + " inputs " + std::to_string(p.op_inputs.size());
    for (const auto& a : p.gpu) out += " " + std::to_string(a.start) + ":" + std::string(p.name_of(a.name));
    for (const auto& r : p.cpu) out += " " + std::to_string(r.start) + ":" + std::string(p.name_of(r.name));
    for (const auto& line : p.stats.counted()) out += "\n" + line.text();
    return out;
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

// Bracket depth outside strings beyond the cursor's limit somewhere in the text.
bool nests_deeper_than_the_cursor(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > 500) return true;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return false;
}

}  // namespace

void kineto_readers_agree(std::string_view text) {
  if (!kineto_simdjson_built()) return;
  std::string cursor = outcome(text, KinetoReader::kCursor);
  std::string simd = outcome(text, KinetoReader::kSimdjson);
  if (cursor == simd || nests_deeper_than_the_cursor(text)) return;
  std::fprintf(stderr, "==FUZZ== the Kineto readers disagree\ncursor:   %s\nsimdjson: %s\n", cursor.c_str(),
               simd.c_str());
  std::abort();
}

}  // namespace cuprobe::fuzz
