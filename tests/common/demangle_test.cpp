// Itanium names made readable (common/demangle), AMD's kernel-descriptor ".kd" symbols included.
#include "common/demangle.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(Demangle, MangledPlainAndBroken) {
  EXPECT_EQ(demangle("gemv_kernel"), "gemv_kernel");
  EXPECT_EQ(demangle("_Z3foov"), "foo()");
  EXPECT_EQ(demangle("_Z3fooIiEvPf"), "void foo<int>(float*)");
  EXPECT_EQ(demangle("_Zgarbage"), "_Zgarbage");
}

// A rocprof kernel name of an aiter MoE run (tests/data/real_kernels/rocprof_aiter_moe_fp8_mi300.tsv).
TEST(Demangle, AmdKernelDescriptorSymbol) {
  EXPECT_EQ(demangle("_ZN5aiter19topksoftmax_4x256x8E.kd"), "aiter::topksoftmax_4x256x8");
  EXPECT_EQ(demangle("_ZN5aiter19topksoftmax_4x256x8E"), "aiter::topksoftmax_4x256x8");
  EXPECT_EQ(demangle("_Zbroken.kd"), "_Zbroken.kd");
}

}  // namespace
}  // namespace cuprobe
