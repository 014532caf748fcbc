#include "import/nsys_sqlite/copy_kind.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(NsysCopyKind, NamesLabelsAndCuptiValues) {
  EXPECT_EQ(copy_kind_from_name("CUDA_MEMCPY_KIND_HTOD"), MemcpyKind::kHtoD);
  EXPECT_EQ(copy_kind_from_name("Device-to-Host"), MemcpyKind::kDtoH);
  EXPECT_EQ(copy_kind_from_name("Peer-to-Peer"), MemcpyKind::kPtoP);
  EXPECT_EQ(copy_kind_from_name("DtoD"), MemcpyKind::kDtoD);
  EXPECT_EQ(copy_kind_from_name("CUDA_MEMCPY_KIND_ATOD"), MemcpyKind::kDtoD);  // arrays are device memory
  EXPECT_EQ(copy_kind_from_name("Host-to-Array"), MemcpyKind::kHtoD);
  EXPECT_EQ(copy_kind_from_name("sideways"), std::nullopt);
  EXPECT_EQ(copy_kind_from_cupti(1), MemcpyKind::kHtoD);
  EXPECT_EQ(copy_kind_from_cupti(2), MemcpyKind::kDtoH);
  EXPECT_EQ(copy_kind_from_cupti(8), MemcpyKind::kDtoD);
  EXPECT_EQ(copy_kind_from_cupti(9), MemcpyKind::kHtoH);
  EXPECT_EQ(copy_kind_from_cupti(10), MemcpyKind::kPtoP);
  EXPECT_EQ(copy_kind_from_cupti(0), MemcpyKind::kUnknown);
  EXPECT_EQ(copy_kind_from_cupti(11), std::nullopt);
  EXPECT_EQ(copy_kind_from_cupti(-1), std::nullopt);
}

}  // namespace
}  // namespace cuprobe
