#include "support/profile_contract.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/utf8.h"

namespace cuprobe::fuzz {
namespace {

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "==FUZZ== importer broke the Profile contract: %s\n", what.c_str());
  std::abort();
}

template <class Spans>
void check_spans(const Spans& spans, const char* what) {
  for (std::size_t i = 0; i < spans.size(); ++i) {
    if (spans[i].end < spans[i].start) {
      broken(std::string(what) + " " + std::to_string(i) + " ends before it starts (" + std::to_string(spans[i].start) +
             " > " + std::to_string(spans[i].end) + ")");
    }
    TimeNs duration = 0;
    if (__builtin_sub_overflow(spans[i].end, spans[i].start, &duration)) {
      broken(std::string(what) + " " + std::to_string(i) + " has a duration beyond 64 bits (" +
             std::to_string(spans[i].start) + " to " + std::to_string(spans[i].end) + ")");
    }
    if (i > 0 && spans[i].start < spans[i - 1].start)
      broken(std::string(what) + " not sorted by start at " + std::to_string(i));
  }
}

void check_text(std::string_view text, const char* what) {
  if (!is_valid_utf8(text)) broken(std::string(what) + " is not valid UTF-8");
}

}  // namespace

void check_profile_contract(const Profile& p) {
  check_spans(p.gpu, "GPU activity");
  check_spans(p.cpu, "CPU range");
  for (std::size_t id = 0; id < p.strings.size(); ++id) check_text(p.strings.view(static_cast<StringId>(id)), "a name");
  for (const auto& d : p.devices) check_text(d.name, "a device name");
  for (const auto& [k, v] : p.metadata) {
    check_text(k, "a metadata key");
    check_text(v, "a metadata value");
  }
  for (const ImportStatLine& line : p.stats.counted()) check_text(line.text(), "a warning");
}

}  // namespace cuprobe::fuzz
