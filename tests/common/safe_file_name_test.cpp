// File names from server text (issue 39 item 3): no control byte, no path, bounded.
#include "common/safe_file_name.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(SafeFileName, ControlBytesSlashesAndNonAsciiBecomeUnderscores) {
  EXPECT_EQ(safe_file_name("vllm-inf-llama-3\r\n\x1b[2J-20261204.json"), "vllm-inf-llama-3___[2J-20261204.json");
  EXPECT_EQ(safe_file_name(std::string("a\0b", 3) + "/c\\d\x7f\xc3\xa9.json"), "a_b_c_d___.json");
  EXPECT_EQ(safe_file_name(".hidden"), "_hidden");
  EXPECT_EQ(safe_file_name("-rf.json"), "_rf.json");
  EXPECT_EQ(safe_file_name(""), "_");
  EXPECT_EQ(safe_file_name("ok-name_1.2qps.json"), "ok-name_1.2qps.json");
}

TEST(SafeFileName, ALongNameIsCutBeforeItsExtension) {
  std::string name = "vllm-infqps-" + std::string(400, 'm') + "-20261204-210000.json";
  std::string safe = safe_file_name(name);
  EXPECT_EQ(safe.size(), 200u);
  EXPECT_EQ(safe.rfind("vllm-infqps-mmm", 0), 0u);
  EXPECT_TRUE(safe.ends_with("m.json"));
  EXPECT_EQ(safe_file_name(std::string(300, 'x')).size(), 200u);
}

}  // namespace
}  // namespace cuprobe
