// issue 34: copy_cast_dominant names the operations that issue the copies and casts.
#include "analysis/copy_operations.h"

#include <gtest/gtest.h>

#include "analysis/breakdown.h"
#include "analysis/launched_profile.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

const CopyOperation* find(const std::vector<CopyOperation>& ops, const std::string& name) {
  for (const auto& op : ops) {
    if (op.operation == name) return &op;
  }
  return nullptr;
}

// A graph-replayed layer as `record --graphs node` sees it: no operators, kernel names only.
TEST(CopyOperations, KernelNamesAndNeighboursNameTheOperations) {
  test::LaunchedProfile lp;
  TimeNs t = 0;
  auto kernel = [&](const std::string& name, TimeNs ns) {
    lp.activity(name, t, t + ns);
    t += ns;
  };
  for (int layer = 0; layer < 4; ++layer) {
    kernel("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(...)>", 3'000);
    kernel("void at::native::vectorized_elementwise_kernel<4, pow_tensor_scalar_kernel_impl<float, float>>", 1'000);
    kernel("void at::native::reduce_kernel<512, 1, ReduceOp<float, MeanOps<float, float>>>", 1'000);
    kernel("void at::native::vectorized_elementwise_kernel<4, rsqrt_kernel_cuda>", 1'000);
    kernel("void at::native::vectorized_elementwise_kernel<8, bfloat16_copy_kernel_cuda<float>>", 3'000);
    kernel("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT", 10'000);
    kernel("void at::native::(anonymous namespace)::CatArrayBatchedCopy<OpaqueType<2u>, unsigned int, 4>", 2'000);
    kernel("void at::native::indexFuncLargeIndex<c10::BFloat16, long>", 2'000);
  }
  Profile& p = lp.sorted();
  StepAssignment steps;
  steps.activity_step.assign(p.gpu.size(), -1);
  auto ops = copy_cast_operations(p, classify_activities(p), steps);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].operation, "RMSNorm's fp32 round trip");
  EXPECT_NEAR(ops[0].share, 0.6, 1e-9);
  EXPECT_EQ(ops[1].operation, "cat");
  EXPECT_EQ(ops[2].operation, "index_copy_/index_add_");
  EXPECT_EQ(copy_operations_text(ops, 2), "RMSNorm's fp32 round trip 60%, cat 20%");
}

// Hugging Face Llama decode (torch.profiler, launching operators present): RMSNorm's casts by their neighbours,
// the rotary embedding's and the cache's cat by their operator.
TEST(CopyOperations, ARealLlamaDecodesCastsAreRmsNormsAndItsCatsAreCat) {
  std::vector<Profile> profiles = load_profiles({test::data_path("llama_bs4_decode.json.gz")});
  const Profile& p = profiles.at(0);
  StepAssignment steps;
  steps.activity_step.assign(p.gpu.size(), -1);
  auto ops = copy_cast_operations(p, classify_activities(p), steps);
  const CopyOperation* rms = find(ops, "RMSNorm's fp32 round trip");
  const CopyOperation* cat = find(ops, "aten::cat");
  ASSERT_TRUE(rms);
  ASSERT_TRUE(cat);
  EXPECT_GT(rms->share, 0.2);
  EXPECT_GT(cat->share, 0.1);
}

}  // namespace
}  // namespace cuprobe
