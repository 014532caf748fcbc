#include "cli/gpu_list.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace cuprobe::test {
namespace {

TEST(GpuList, AllAndIndices) {
  EXPECT_TRUE(parse_gpu_list("all").empty());
  EXPECT_EQ(parse_gpu_list("0"), std::vector<int>{0});
  EXPECT_EQ(parse_gpu_list("3,1"), (std::vector<int>{3, 1}));
}

TEST(GpuList, RejectsEverythingElse) {
  for (const char* bad : {"", ",", "0,", ",1", "0,,1", "-1", "a", "0x1", "1 2", "99999", "ALL", "0;1"}) {
    try {
      parse_gpu_list(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), 2) << bad;
    }
  }
}

}  // namespace
}  // namespace cuprobe::test
