#include "import/nsys_sqlite/api_name.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(NsysApiName, CutsTheVersionNsysAdds) {
  EXPECT_EQ(api_name_without_version("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(api_name_without_version("cudaMemcpy_v3020"), "cudaMemcpy");
  EXPECT_EQ(api_name_without_version("cudaGraphLaunch_v10000"), "cudaGraphLaunch");
  EXPECT_EQ(api_name_without_version("cuMemcpyDtoH_v2"), "cuMemcpyDtoH_v2");  // the driver API's own name
  EXPECT_EQ(api_name_without_version("cudaFoo_v12ab"), "cudaFoo_v12ab");
  EXPECT_EQ(api_name_without_version("cudaDeviceSynchronize"), "cudaDeviceSynchronize");
  EXPECT_EQ(api_name_without_version("_v1234"), "");
  EXPECT_EQ(api_name_without_version(""), "");
}

}  // namespace
}  // namespace cuprobe
