// Traces cut inside a number right at the 4 MiB read window (issue 11, B1/B2):
// plain, gzip and xz alike must say "unexpected end of file" at the cut.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "common/error.h"
#include "import/kineto_json/compress_for_test.h"
#include "import/kineto_json/kineto_importer.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

constexpr std::size_t kWindow = 4 << 20;

// Kernels with long timestamps until the text passes the window by a little.
std::string trace_past_the_window() {
  std::string text = R"J({"traceEvents": [)J";
  for (long i = 0; text.size() < kWindow + 4096; ++i) {
    if (i) text += ",\n";
    text += R"J({"ph": "X", "cat": "kernel", "name": "k", "ts": )J" + std::to_string(1700000000000000 + i * 17) +
            R"J(.125, "dur": 3, "args": {"correlation": )J" + std::to_string(i) + "}}";
  }
  text += "]}";
  // Line the window's end up with a number's digits.
  while (!(text[kWindow - 1] >= '0' && text[kWindow - 1] <= '9')) text.insert(17, " ");
  return text;
}

// Cuts inside numbers: the one ending exactly at the window, and ones straddling it.
std::vector<std::size_t> cuts_inside_numbers(const std::string& text) {
  auto digit = [&](std::size_t i) { return text[i] >= '0' && text[i] <= '9'; };
  std::vector<std::size_t> cuts;
  for (std::size_t at = kWindow - 24; at < kWindow + 24; ++at) {
    if (digit(at - 1) && (at == kWindow || cuts.size() < 6)) cuts.push_back(at);
  }
  return cuts;
}

std::string import_error(const std::string& path) {
  try {
    import_kineto_json(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(KinetoWindowBoundary, ACutInsideANumberIsAnUnexpectedEndOfFile) {
  std::string text = trace_past_the_window();
  std::vector<std::size_t> cuts = cuts_inside_numbers(text);
  ASSERT_NE(std::find(cuts.begin(), cuts.end(), kWindow), cuts.end());
  std::string dir = test::temp_dir();
  for (std::size_t cut : cuts) {
    std::string part = text.substr(0, cut);
    const std::pair<const char*, std::string> files[] = {
        {"plain.json", part}, {"t.json.gz", test::gzip(part)}, {"t.json.xz", test::xz(part)}};
    for (const auto& [name, bytes] : files) {
      std::string path = dir + "/" + name;
      std::ofstream(path, std::ios::binary) << bytes;
      EXPECT_EQ(import_error(path).rfind(path + ": byte " + std::to_string(cut) + ": unexpected end of file", 0), 0u)
          << name << " cut at " << cut << ": " << import_error(path);
    }
  }
  std::ofstream(dir + "/whole.json", std::ios::binary) << text;
  EXPECT_GT(import_kineto_json(dir + "/whole.json").gpu.size(), 1000u);
}

TEST(KinetoWindowBoundary, TheCliSaysSoWithExitOne) {
  std::string text = trace_past_the_window();
  std::string path = test::temp_dir() + "/cut.json.gz";
  std::ofstream(path, std::ios::binary) << test::gzip(text.substr(0, kWindow));
  auto r = test::run_cuprobe({"analyze", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path + ": byte " + std::to_string(kWindow) + ": unexpected end of file"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace cuprobe
