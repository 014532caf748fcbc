// What `report --bench FILE --requests FILE` reads (issue 39): the input is a
// bench result and its request lines, split at the first NUL byte (none: no
// request lines). bench_view and report_headline must give a page's data or one
// InputError, never a crash, a sanitizer report or an unbounded allocation,
// whatever keys are missing or hold other types.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"
#include "report/html/bench_view.h"
#include "report/html/report_headline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t cut = input.find('\0');
  std::string result(input.substr(0, cut));
  std::optional<std::string> requests;
  if (cut != std::string_view::npos) requests = std::string(input.substr(cut + 1));
  try {
    nlohmann::ordered_json view = cuprobe::bench_view("result.json", result, "requests.jsonl", requests);
    (void)cuprobe::report_headline(nullptr, view).dump();
  } catch (const cuprobe::InputError&) {
  }
  return 0;
}
