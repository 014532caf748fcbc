// FLOPs and bytes per operator from record_shapes arguments (docs/findings.md).
#include "analysis/op_work.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

OpArg t(std::vector<std::int64_t> dims, std::string type) {
  OpArg a;
  a.dims = std::move(dims);
  a.type = std::move(type);
  return a;
}

OpArg scalar(std::string value, std::string type = "Scalar") {
  OpArg a;
  a.type = std::move(type);
  a.concrete = std::move(value);
  return a;
}

constexpr const char* kBf16 = "c10::BFloat16";
constexpr const char* kFp8 = "c10::Float8_e4m3fn";

TEST(OpWork, MmIsTwoMKNFlopsAndEachMatrixOnce) {
  auto w = op_work("aten::mm", {{t({384, 1536}, kBf16), t({1536, 512}, kBf16)}});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->kind, WorkKind::kGemm);
  EXPECT_DOUBLE_EQ(w->flops, 2.0 * 384 * 1536 * 512);
  EXPECT_DOUBLE_EQ(w->bytes, 2.0 * (384 * 1536 + 1536 * 512 + 384 * 512));
  EXPECT_EQ(w->dtype, PeakDtype::kBf16);
}

TEST(OpWork, AddmmAddsTheBiasAndBmmTheBatch) {
  auto a = op_work("aten::addmm", {{t({512}, kBf16), t({8, 64}, kBf16), t({64, 512}, kBf16)}});
  ASSERT_TRUE(a);
  EXPECT_DOUBLE_EQ(a->flops, 2.0 * 8 * 64 * 512);
  EXPECT_DOUBLE_EQ(a->bytes, 2.0 * (512 + 8 * 64 + 64 * 512 + 8 * 512));
  auto b = op_work("aten::bmm", {{t({4, 64, 1}, "float"), t({4, 1, 96}, "float")}});
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(b->flops, 2.0 * 4 * 64 * 1 * 96);
  EXPECT_EQ(b->dtype, PeakDtype::kFp32);
}

TEST(OpWork, LinearFoldsLeadingDimsAndCountsTheBias) {
  auto w = op_work("aten::linear", {{t({4, 96, 1536}, kBf16), t({512, 1536}, kBf16), t({512}, kBf16)}});
  ASSERT_TRUE(w);
  EXPECT_DOUBLE_EQ(w->flops, 2.0 * 384 * 1536 * 512);
  EXPECT_DOUBLE_EQ(w->bytes, 2.0 * (384 * 1536 + 512 * 1536 + 384 * 512 + 512));
}

TEST(OpWork, ScaledMmRunsAtTheFp8RateAndWritesItsOutDtype) {
  OpInputs in{{t({16, 4096}, kFp8), t({4096, 4096}, kFp8), t({}, "float"), t({}, "float"), scalar(""), scalar(""),
               scalar("15"), scalar("False")}};
  auto w = op_work("aten::_scaled_mm", in);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->dtype, PeakDtype::kFp8);
  EXPECT_DOUBLE_EQ(w->flops, 2.0 * 16 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(w->bytes, 16.0 * 4096 + 4096.0 * 4096 + 4 + 4 + 16.0 * 4096 * 2);
}

TEST(OpWork, GroupedMmOfTokensAgainstExperts) {
  auto w = op_work("aten::_grouped_mm", {{t({256, 1024}, kBf16), t({8, 1024, 2048}, kBf16), t({8}, "int")}});
  ASSERT_TRUE(w);
  EXPECT_DOUBLE_EQ(w->flops, 2.0 * 256 * 1024 * 2048);
}

TEST(OpWork, MismatchedGemmShapesGiveNothing) {
  EXPECT_FALSE(op_work("aten::mm", {{t({8, 64}, kBf16), t({32, 16}, kBf16)}}));
  EXPECT_FALSE(op_work("aten::mm", {{t({8, 64}, kBf16)}}));
  EXPECT_FALSE(op_work("aten::mm", {{t({8, 64}, "c10::Unknown"), t({64, 16}, kBf16)}}));
}

TEST(OpWork, SdpaCountsBothMatmulsAndHalvesACausalSquare) {
  OpInputs in{{t({2, 8, 128, 64}, kBf16), t({2, 8, 128, 64}, kBf16), t({2, 8, 128, 64}, kBf16), scalar(""),
               scalar("0."), scalar("False")}};
  auto full = op_work("aten::scaled_dot_product_attention", in);
  ASSERT_TRUE(full);
  EXPECT_EQ(full->kind, WorkKind::kAttention);
  EXPECT_DOUBLE_EQ(full->flops, 4.0 * 2 * 8 * 128 * 128 * 64);
  EXPECT_DOUBLE_EQ(full->bytes, 4.0 * 2 * 8 * 128 * 64 * 2);
  in.args[5].concrete = "True";
  EXPECT_DOUBLE_EQ(op_work("aten::scaled_dot_product_attention", in)->flops, full->flops / 2);
}

TEST(OpWork, FlashForwardReadsBatchLengthHeadsDim) {
  OpInputs in{{t({2, 1, 16, 128}, kBf16), t({2, 4096, 16, 128}, kBf16), t({2, 4096, 16, 128}, kBf16)}};
  auto w = op_work("aten::_flash_attention_forward", in);
  ASSERT_TRUE(w);
  EXPECT_DOUBLE_EQ(w->flops, 4.0 * 2 * 16 * 1 * 4096 * 128);
}

TEST(OpWork, ACastMovesEachElementInItsSourceAndDestinationDtypes) {
  auto w = op_work("aten::copy_", {{t({496000, 576}, kBf16), t({496000, 576}, kFp8), scalar("False")}});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->kind, WorkKind::kCopy);
  EXPECT_TRUE(w->cast);
  EXPECT_DOUBLE_EQ(w->bytes, 496000.0 * 576 * 3);  // 857 MB
  EXPECT_DOUBLE_EQ(w->elements, 496000.0 * 576);
  EXPECT_EQ(w->dims, (std::vector<std::int64_t>{496000, 576}));
  auto same = op_work("aten::copy_", {{t({10}, kBf16), t({10}, kBf16), scalar("False")}});
  ASSERT_TRUE(same);
  EXPECT_FALSE(same->cast);
  EXPECT_DOUBLE_EQ(same->bytes, 40);
  auto to_copy = op_work("aten::_to_copy", {{t({10}, kFp8), scalar("6")}});  // 6: float
  ASSERT_TRUE(to_copy);
  EXPECT_DOUBLE_EQ(to_copy->bytes, 10.0 * (1 + 4));
}

TEST(OpWork, GathersReadTheRowsTheyIndex) {
  OpArg idx;
  idx.type = "TensorList";
  idx.list_dims = {{4096}};
  auto w = op_work("aten::index", {{t({496000, 576}, kBf16), idx}});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->kind, WorkKind::kGather);
  EXPECT_DOUBLE_EQ(w->elements, 4096.0 * 576);
  EXPECT_EQ(w->dims, (std::vector<std::int64_t>{496000, 576}));
  auto e = op_work("aten::embedding", {{t({32000, 1536}, kBf16), t({4, 96}, "long int")}});
  ASSERT_TRUE(e);
  EXPECT_DOUBLE_EQ(e->bytes, 384.0 * 1536 * 2 * 2 + 384 * 8);
  auto s = op_work("aten::index_select", {{t({32000, 1536}, kBf16), scalar("0"), t({384}, "long int")}});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->elements, 384.0 * 1536);
}

OpArg strided(std::vector<std::int64_t> dims, std::vector<std::int64_t> strides, std::string type) {
  OpArg a = t(std::move(dims), std::move(type));
  a.strides = std::move(strides);
  return a;
}

// issue 25: torch.index_select runs as aten::gather with the index expanded to the output's sizes (stride 0 along
// the row): its storage is 384 int64, not 384 x 1536, which counted the gather at 2.2x the H200's bandwidth.
TEST(OpWork, AnExpandedIndexIsReadByItsStorage) {
  EXPECT_DOUBLE_EQ(storage_elements({384, 1536}, {1, 0}), 384);
  EXPECT_DOUBLE_EQ(storage_elements({384, 64, 576}, {1, 0, 0}), 384);
  EXPECT_DOUBLE_EQ(storage_elements({384, 1536}, {}), 384.0 * 1536);  // no strides recorded: every element
  EXPECT_DOUBLE_EQ(storage_elements({8, 1, 576}, {576, 576, 1}), 8.0 * 576);
  auto g = op_work("aten::gather",
                   {{strided({32000, 1536}, {1536, 1}, kBf16), scalar("0"), strided({384, 1536}, {1, 0}, "long int"),
                     scalar("False"), strided({384, 1536}, {1536, 1}, kBf16)}});
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g->elements, 384.0 * 1536);
  EXPECT_DOUBLE_EQ(g->bytes, 384.0 * 1536 * 2 * 2 + 384 * 8);
  EXPECT_EQ(g->sized_by, "index shapes");
  // A broadcast operand of an elementwise operator is read once too; the output is written whole.
  auto add = op_work("aten::add", {{t({8, 4096}, kBf16), strided({8, 4096}, {0, 1}, kBf16)}});
  ASSERT_TRUE(add);
  EXPECT_DOUBLE_EQ(add->bytes, 2.0 * (8 * 4096 + 4096 + 8 * 4096));
}

// torch 2.11 records aten::index's indices (Tensor?[]) as []: the gather is known but left for its call to size.
TEST(OpWork, AGatherWithoutIndexShapesIsLeftUnsized) {
  OpArg none;
  none.type = "GenericList";
  auto w = op_work("aten::index", {{t({496000, 576}, kBf16), none}});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->kind, WorkKind::kGather);
  EXPECT_EQ(w->sized_by, "");
  EXPECT_EQ(w->elements, 0);
  EXPECT_EQ(w->bytes, 0);
  EXPECT_EQ(w->element_bytes, 2);
  EXPECT_EQ(w->dims, (std::vector<std::int64_t>{496000, 576}));
  // index.Tensor_out and gather's out= give the gathered size.
  auto out = op_work("aten::index", {{t({496000, 576}, kBf16), none, t({4096, 576}, kBf16)}});
  ASSERT_TRUE(out);
  EXPECT_EQ(out->sized_by, "output argument");
  EXPECT_DOUBLE_EQ(out->elements, 4096.0 * 576);
  auto take = op_work("aten::take", {{t({1000, 64}, kBf16), t({128}, "long int")}});
  ASSERT_TRUE(take);
  EXPECT_DOUBLE_EQ(take->elements, 128);
  EXPECT_DOUBLE_EQ(take->bytes, 128.0 * 2 * 2 + 128 * 8);
}

TEST(OpWork, ElementwiseNormAndReductionStreamTheirTensors) {
  auto mul = op_work("aten::mul", {{t({4, 96, 1536}, "float"), t({4, 96, 1}, "float")}});
  ASSERT_TRUE(mul);
  EXPECT_EQ(mul->kind, WorkKind::kElementwise);
  EXPECT_DOUBLE_EQ(mul->bytes, 4.0 * (589824 + 384 + 589824));
  EXPECT_DOUBLE_EQ(mul->flops, 589824);
  auto add_ = op_work("aten::add_", {{t({8, 4096}, kBf16), t({8, 4096}, kBf16), scalar("1")}});
  ASSERT_TRUE(add_);
  EXPECT_DOUBLE_EQ(add_->bytes, 3.0 * 8 * 4096 * 2);
  auto norm = op_work("_C::rms_norm", {{t({8, 4096}, kBf16), t({8, 4096}, kBf16), t({4096}, kBf16)}});
  ASSERT_TRUE(norm);
  EXPECT_EQ(norm->kind, WorkKind::kNorm);
  auto sum = op_work("aten::sum", {{t({8, 4096}, "float"), scalar("[-1]", "ScalarList")}});
  ASSERT_TRUE(sum);
  EXPECT_EQ(sum->kind, WorkKind::kReduction);
  EXPECT_DOUBLE_EQ(sum->bytes, 8.0 * 4096 * 4);
}

TEST(OpWork, UnknownOperatorsAndScalarOnlyCallsGiveNothing) {
  EXPECT_FALSE(op_work("aten::view", {{t({8, 4096}, kBf16)}}));
  EXPECT_FALSE(op_work("aten::add", {{scalar("1"), scalar("2")}}));
}

TEST(OpWork, DtypeSizes) {
  EXPECT_EQ(dtype_bytes("c10::BFloat16"), 2);
  EXPECT_EQ(dtype_bytes("c10::Float8_e5m2"), 1);
  EXPECT_EQ(dtype_bytes("long int"), 8);
  EXPECT_EQ(dtype_bytes("Scalar"), 0);
}

}  // namespace
}  // namespace cuprobe
