// Communication beside computation as HTA counts it (get_comm_comp_overlap and the kernel types of
// get_gpu_kernel_breakdown; hta/utils/utils.py, hta/analyzers/communication_analysis.py).
#include "analysis/hta_comm_overlap.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

HtaKernelType type_of(const char* name, GpuActivityKind kind = GpuActivityKind::kKernel) {
  GpuActivity a;
  a.kind = kind;
  return hta_kernel_type(a, name);
}

TEST(HtaCommOverlap, KernelTypesByHtasNameRules) {
  // NCCL_KERNEL_RE = ^nccl.*Kernel: the kernels of NCCL before 2.19 and after.
  EXPECT_EQ(type_of("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"), HtaKernelType::kCommunication);
  EXPECT_EQ(type_of("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
            HtaKernelType::kCommunication);
  // Not communication for HTA: a name that does not start with nccl, or has no "Kernel" after it.
  EXPECT_EQ(type_of("void vllm::cross_device_reduce_1stage<__nv_bfloat16, 2>(...)"), HtaKernelType::kComputation);
  EXPECT_EQ(type_of("nccl:all_reduce"), HtaKernelType::kComputation);
  // MEMORY_KERNEL_RE = (^Memcpy)|(^Memset)|(^dma); copies and memsets whatever their name.
  EXPECT_EQ(type_of("Memcpy DtoD (Device -> Device)"), HtaKernelType::kMemory);
  EXPECT_EQ(type_of("dma_copy"), HtaKernelType::kMemory);
  EXPECT_EQ(type_of("anything", GpuActivityKind::kMemcpy), HtaKernelType::kMemory);
  EXPECT_EQ(type_of("anything", GpuActivityKind::kMemset), HtaKernelType::kMemory);
  // is_compute_kernel is false for names holding Memcpy or Sync: HTA's "other", in neither side.
  EXPECT_EQ(type_of("void cub::DeviceMemcpy_kernel"), HtaKernelType::kOther);
  EXPECT_EQ(type_of("streamSyncKernel"), HtaKernelType::kOther);
  EXPECT_EQ(type_of("sm90_xmma_gemm_bf16bf16"), HtaKernelType::kComputation);
}

TEST(HtaCommOverlap, MergedPerRankOverlapOverCommunication) {
  test::LaunchedProfile t;
  t.activity("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 0, 100, 20);
  t.activity("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 50, 150, 21);  // merged with the first: [0, 150)
  t.activity("gemm", 100, 200, 7);                                      // 50 beside communication
  t.activity("gemm", 120, 130, 8);                                      // inside the union already
  t.activity("Memcpy DtoD", 0, 300, 9);                                 // memory: neither side
  t.p.gpu.back().kind = GpuActivityKind::kMemcpy;
  t.activity("cub::DeviceMemcpy", 0, 300, 10);  // other: neither side
  t.activity("ncclDevKernel_SendRecv", 400, 500, 20);
  t.p.gpu.back().device = 1;  // another GPU of the same rank: HTA's frame is the rank's
  t.activity("gemm", 450, 460, 7);
  HtaCommOverlap o = hta_comm_overlap(t.sorted());
  EXPECT_EQ(o.communication_kernels, 3);
  EXPECT_DOUBLE_EQ(o.communication_ms, 250e-6);
  EXPECT_DOUBLE_EQ(o.computation_ms, 110e-6);
  EXPECT_DOUBLE_EQ(o.overlap_ms, 60e-6);
  EXPECT_DOUBLE_EQ(o.comp_comm_overlap_pctg, 100.0 * 60 / 250);
  EXPECT_DOUBLE_EQ(o.computation_only_ms(), 50e-6);
  EXPECT_DOUBLE_EQ(o.communication_only_ms(), 190e-6);
}

TEST(HtaCommOverlap, NothingWithoutCommunication) {
  test::LaunchedProfile t;
  t.activity("gemm", 0, 100);
  HtaCommOverlap o = hta_comm_overlap(t.sorted());
  EXPECT_EQ(o.communication_kernels, 0);
  EXPECT_EQ(o.comp_comm_overlap_pctg, 0);
  EXPECT_DOUBLE_EQ(o.computation_ms, 100e-6);
}

}  // namespace
}  // namespace cuprobe
