#include "model/string_table.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(StringTable, InternsOnceAndSurvivesMove) {
  StringTable t;
  StringId a = t.intern("nvjet_sm90_tst_64x8");
  StringId b = t.intern("direct_copy_kernel_cuda");
  EXPECT_EQ(t.intern("nvjet_sm90_tst_64x8"), a);
  EXPECT_NE(a, b);
  EXPECT_EQ(t.intern(""), kNoString);
  StringTable moved = std::move(t);
  EXPECT_EQ(moved.view(a), "nvjet_sm90_tst_64x8");
  EXPECT_EQ(moved.find("direct_copy_kernel_cuda"), b);
  EXPECT_FALSE(moved.find("missing").has_value());
}

}  // namespace
}  // namespace cuprobe
