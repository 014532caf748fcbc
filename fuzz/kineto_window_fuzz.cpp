// Kineto JSON whose fuzzed part straddles the importer's first read window
// (JsonCursor's default 4 MiB, json_cursor.h). A fixed valid prefix — the
// trace's start and one kernel, then whitespace inside the traceEvents array —
// ends kReach bytes before the window's end; byte 0 picks the wrapping as in
// kineto_json. Byte 1 (s) even: the rest is shifted so that the window ends s
// bytes into it, the file going on. Odd: the file ends there too, after the
// rest's first s bytes, so that its last token meets the window's end; every
// mutation before the cut moves a different token there.
// Compressed inputs are the prefix's member/stream, compressed once, followed
// by the fuzzed part's own (both readers take concatenated gzip members and xz
// streams). Plain inputs are also read by both readers of traceEvents, which must agree
// (support/kineto_readers_agree.h): simdjson's windows end near the fuzzed part too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "support/compress.h"
#include "support/kineto_readers_agree.h"
#include "support/load_and_check.h"
#include "support/scratch_file.h"

namespace {

using namespace cuprobe::fuzz;

constexpr std::size_t kWindow = std::size_t{4} << 20;
constexpr std::size_t kReach = 256;

struct Prefix {
  std::string plain, gz, xz;
};

const Prefix& prefix() {
  static const Prefix p = [] {
    Prefix out;
    out.plain = R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA H200","totalGlobalMem":150109323264,)"
                R"("computeMajor":9,"computeMinor":0,"numSms":132}],"baseTimeNanoseconds":1764000000000000000,)"
                R"("traceEvents":[{"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":7,"ts":1000.250,)"
                R"("dur":12.5,"args":{"device":0,"stream":7,"correlation":11,"grid":[132,1,1],"block":[256,1,1]}},)";
    out.plain.resize(kWindow - kReach, '\n');
    out.gz = gzip(out.plain);
    out.xz = xz(out.plain);
    return out;
  }();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static ScratchFile file("trace.json");
  WrapChoice choice = wrap_choice(data[0]);
  std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
  std::size_t shift = data[1];
  if (shift % 2 == 1) {
    text = text.substr(0, shift);
    shift = text.size();
  }
  std::string rest(kReach - shift, ' ');
  rest.append(text);
  const Prefix& p = prefix();
  const std::string& head = choice.wrapping == Wrapping::kGzip ? p.gz
                            : choice.wrapping == Wrapping::kXz ? p.xz
                                                               : p.plain;
  load_and_check(file.write(head + wrap(choice, rest)));
  if (choice.wrapping == Wrapping::kPlain && choice.cut == 0) kineto_readers_agree(p.plain + rest);
  return 0;
}
