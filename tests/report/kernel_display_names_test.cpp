// A kernel table's row names are unique: the short form where it is enough, the
// template arguments that differ where it is not, a number as the last resort.
#include "report/kernel_display_names.h"

#include <gtest/gtest.h>

#include <set>

namespace cuprobe {
namespace {

const char* kMul =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, "
    "float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, "
    "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > "
    "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, "
    "at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, "
    "float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})";
const char* kAdd =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, "
    "float, float, at::native::binary_internal::AddFunctor<float> > >(at::TensorIteratorBase&, "
    "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::AddFunctor<float> > "
    "const&)::{lambda(int)#1}>(int, ...)";
const char* kCat3 =
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 3, 64, 64>(float*, "
    "at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 64, 64>, "
    "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)";
const char* kCat4 =
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 4, 128, 1>(float*, "
    "at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, "
    "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)";

TEST(KernelDisplayNames, ShortFormWhereItIsUnique) {
  auto names = unique_kernel_display_names(
      {kMul, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage)", "Memcpy DtoH (Device -> Pinned)"});
  EXPECT_EQ(names[0], "elementwise_kernel<gpu_kernel_impl_nocast>");
  EXPECT_EQ(names[1], "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  EXPECT_EQ(names[2], "Memcpy DtoH (Device -> Pinned)");
}

TEST(KernelDisplayNames, DifferingTemplateArgumentsTellRowsApart) {
  auto names = unique_kernel_display_names({kMul, kAdd, kCat3, kCat4, kMul});
  EXPECT_EQ(names[0], "elementwise_kernel<gpu_kernel_impl_nocast<BinaryFunctor<MulFunctor>>>");
  EXPECT_EQ(names[1], "elementwise_kernel<gpu_kernel_impl_nocast<BinaryFunctor<AddFunctor>>>");
  EXPECT_EQ(names[2], "CatArrayBatchedCopy<float, 3>");  // the first argument that tells them apart
  EXPECT_EQ(names[3], "CatArrayBatchedCopy<float, 4>");
  EXPECT_EQ(names[4], names[0]);  // the same kernel, the same name
}

TEST(KernelDisplayNames, ParameterTypesWhereTemplatesAreAlike) {
  const char* bf16 =
      "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
      "{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}, "
      "std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int> >(int, ...)";
  const char* fp32 =
      "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
      "{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, "
      "std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int> >(int, ...)";
  auto names = unique_kernel_display_names({bf16, fp32, "foo(int)", "foo(float)"});
  EXPECT_EQ(names[0], "unrolled_elementwise_kernel<direct_copy_kernel_cuda(BFloat16)>");
  EXPECT_EQ(names[1], "unrolled_elementwise_kernel<direct_copy_kernel_cuda(float)>");
  EXPECT_EQ(names[2], "foo(int)");
  EXPECT_EQ(names[3], "foo(float)");
}

TEST(KernelDisplayNames, AlikeInEveryShownPartAreNumberedAndLongFormsCutKeepTheirTail) {
  auto names = unique_kernel_display_names({"a::foo(int)", "b::foo(int)", "a::foo(int)"});
  EXPECT_EQ(names[0], "foo");
  EXPECT_EQ(names[1], "foo (2)");
  EXPECT_EQ(names[2], "foo");
  auto cut = unique_kernel_display_names({kMul, kAdd}, 40);
  EXPECT_EQ(cut[0].size(), 40u);
  EXPECT_NE(cut[0], cut[1]);
  EXPECT_NE(cut[0].find("Mul"), std::string::npos) << cut[0];
  std::set<std::string> unique(cut.begin(), cut.end());
  EXPECT_EQ(unique.size(), 2u);
}

}  // namespace
}  // namespace cuprobe
