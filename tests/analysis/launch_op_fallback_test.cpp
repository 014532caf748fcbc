// Kernels whose names the taxonomy does not know take the category of the operator that
// launched them; the report says how each category was decided.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "analysis/analyze.h"
#include "analysis/breakdown.h"
#include "analysis/kernel_taxonomy_ops.h"
#include "import/load_profiles.h"
#include "report/analyze_json.h"
#include "report/analyze_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

// A ROCm-style trace built by hand: operators on thread 1, hipLaunchKernel calls inside
// them, one kernel per launch, 10 us each.
class TraceBuilder {
 public:
  TraceBuilder() { p_.source = "kineto"; }

  // An operator or annotation [start, end) on `tid`.
  void range(CpuRangeKind kind, std::string_view name, TimeNs start, TimeNs end, std::int64_t tid = 1) {
    p_.cpu.push_back(
        CpuRange{.kind = kind, .name = p_.strings.intern(name), .start = start, .end = end, .pid = 7, .tid = tid});
  }
  void op(std::string_view name, TimeNs start, TimeNs end, std::int64_t tid = 1) {
    range(CpuRangeKind::kOperator, name, start, end, tid);
  }
  // A launch call at `t` (5 ns long) and the kernel it launched.
  void launch(std::string_view kernel, TimeNs t, std::string_view call = "hipLaunchKernel", std::int64_t tid = 1) {
    std::int64_t corr = next_corr_++;
    p_.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                              .name = p_.strings.intern(call),
                              .start = t,
                              .end = t + 5,
                              .pid = 7,
                              .tid = tid,
                              .correlation = corr});
    GpuActivity a;
    a.name = p_.strings.intern(kernel);
    a.start = 1'000'000 + corr * 20'000;
    a.end = a.start + 10'000;
    a.device = 0;
    a.stream = 7;
    a.correlation = corr;
    p_.gpu.push_back(a);
  }
  Profile done() {
    p_.sort_by_time();
    return std::move(p_);
  }

 private:
  Profile p_;
  std::int64_t next_corr_ = 1;
};

Profile training_step() {
  TraceBuilder b;
  b.op("aten::batch_norm", 0, 100);
  b.op("aten::_batch_norm_impl_index", 10, 90);
  b.op("aten::miopen_batch_norm", 20, 80);
  b.launch("MIOpenBatchNormFwdTrainSpatialMystery_v2", 30);  // unknown name: the op decides
  b.op("aten::convolution", 200, 300);
  b.op("aten::empty", 205, 208);  // an enclosing-but-finished sibling must not count
  b.launch("kernel_0x1f2e", 210);
  b.op("aten::to", 400, 500);
  b.op("aten::copy_", 400, 500);  // same start as its parent: still nested
  b.launch("opaque_blit", 400);
  b.range(CpuRangeKind::kAnnotation, "Optimizer.step#AdamW.step", 600, 700);
  b.launch("unnamed_update_kernel", 610);
  b.range(CpuRangeKind::kAnnotation, "attention_block", 800, 900);  // free text: not read as a name
  b.launch("mystery_a", 810);
  b.launch("mystery_b", 1000);  // no operator around
  b.op("aten::mm", 1100, 1200);
  b.launch("graph_node_kernel", 1110, "hipGraphLaunch");  // a graph's nodes: the op says nothing
  b.op("aten::add", 1300, 1400, /*tid=*/2);
  b.launch("mystery_c", 1310);  // the operator runs on another thread
  b.op("aten::mm", 1500, 1600);
  b.launch("Cijk_Alik_Bljk_BBS_BH_MT64x64x64_MI16x16x1", 1510, "hipExtModuleLaunchKernel");  // known name wins
  b.op("_C::rms_norm", 1700, 1800);  // custom op read as a kernel name
  b.launch("k_17", 1710, "hipModuleLaunchKernel");
  return b.done();
}

const KernelRow& kernel(const RankAnalysis& a, std::string_view name) {
  for (const auto& k : a.kernels) {
    if (k.name == name) return k;
  }
  ADD_FAILURE() << "no kernel " << name;
  static KernelRow none;
  return none;
}

TEST(LaunchOpFallback, UnknownKernelsTakeTheirLaunchingOperatorsCategory) {
  Profile p = training_step();
  std::vector<KernelClass> classes = classify_activities(p);
  ASSERT_EQ(classes.size(), p.gpu.size());
  std::map<std::string, KernelClass> by_name;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) by_name[std::string(p.name_of(p.gpu[i].name))] = classes[i];

  auto expect = [&](const char* name, Category c, CategorySource s, std::string_view rule) {
    const KernelClass& k = by_name.at(name);
    EXPECT_EQ(category_name(k.category), category_name(c)) << name;
    EXPECT_EQ(category_source_name(k.decided_by), category_source_name(s)) << name;
    EXPECT_EQ(k.rule, rule) << name;
  };
  using S = CategorySource;
  expect("MIOpenBatchNormFwdTrainSpatialMystery_v2", Category::kNorm, S::kName, "batchnorm");
  expect("kernel_0x1f2e", Category::kConv, S::kLaunchOp, "convolution");
  expect("opaque_blit", Category::kCopyCast, S::kLaunchOp, "=aten::copy_");
  expect("unnamed_update_kernel", Category::kOptimizer, S::kLaunchOp, "Optimizer.step");
  expect("mystery_a", Category::kOther, S::kUnknown, "");
  expect("mystery_b", Category::kOther, S::kUnknown, "");
  expect("graph_node_kernel", Category::kOther, S::kUnknown, "");
  expect("mystery_c", Category::kOther, S::kUnknown, "");
  expect("Cijk_Alik_Bljk_BBS_BH_MT64x64x64_MI16x16x1", Category::kGemm, S::kName, "Cijk_&_BBS_");
  expect("k_17", Category::kNorm, S::kLaunchOp, "rms_norm");
  // Tensor cores and precision are never guessed from the operator.
  EXPECT_EQ(by_name.at("kernel_0x1f2e").tensor_core, std::nullopt);
  EXPECT_EQ(by_name.at("kernel_0x1f2e").precision, std::nullopt);
}

TEST(LaunchOpFallback, KernelsWithoutALaunchTakeTheirOperatorByExternalId) {
  // ROCm traces may lack the kernel's correlation; Kineto still gives it its operator's External id.
  Profile p;
  auto op = [&](std::string_view name, TimeNs start, std::int64_t external_id) {
    p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kOperator,
                             .name = p.strings.intern(name),
                             .start = start,
                             .end = start + 100,
                             .pid = 7,
                             .tid = 1,
                             .external_id = external_id});
  };
  auto kernel = [&](std::string_view name, TimeNs start, std::int64_t external_id) {
    GpuActivity a;
    a.name = p.strings.intern(name);
    a.start = start;
    a.end = start + 10;
    a.device = 0;
    a.external_id = external_id;
    p.gpu.push_back(a);
  };
  op("aten::miopen_batch_norm", 0, 12);
  op("aten::_to_copy", 200, 13);
  op("aten::empty", 400, 14);
  kernel("opaque_a", 1000, 12);
  kernel("opaque_b", 2000, 13);
  kernel("opaque_c", 3000, 14);  // its operator says nothing
  kernel("opaque_d", 4000, 15);  // no such operator
  kernel("opaque_e", 5000, -1);
  p.sort_by_time();
  std::vector<KernelClass> classes = classify_activities(p);
  EXPECT_EQ(category_name(classes[0].category), "norm");
  EXPECT_EQ(classes[0].decided_by, CategorySource::kLaunchOp);
  EXPECT_EQ(classes[0].rule, "batch_norm");
  EXPECT_EQ(category_name(classes[1].category), "copy_cast");
  for (std::size_t i = 2; i < 5; ++i) EXPECT_EQ(classes[i].decided_by, CategorySource::kUnknown) << i;
}

TEST(LaunchOpFallback, TheOperatorTableKeepsExactNamesExact) {
  EXPECT_EQ(classify_operator("aten::to")->category, Category::kCopyCast);
  EXPECT_EQ(classify_operator("aten::topk")->category, Category::kReduction);
  EXPECT_EQ(classify_operator("aten::embedding_bag")->category, Category::kEmbedding);
  EXPECT_EQ(classify_operator("aten::_embedding_bag_backward")->category, Category::kEmbedding);
  EXPECT_EQ(classify_operator("fbgemm::split_embedding_codegen_lookup_rowwise_adagrad_function")->category,
            Category::kEmbedding);
  EXPECT_EQ(classify_operator("aten::cudnn_convolution")->category, Category::kConv);
  EXPECT_EQ(classify_operator("aten::convolution_backward")->category, Category::kConv);
  EXPECT_EQ(classify_operator("aten::native_batch_norm_backward")->category, Category::kNorm);
  EXPECT_EQ(classify_operator("aten::_foreach_add_")->category, Category::kOptimizer);
  EXPECT_EQ(classify_operator("aten::_fused_adamw_")->category, Category::kOptimizer);
  EXPECT_EQ(classify_operator("aten::addmm")->category, Category::kGemm);
  EXPECT_EQ(classify_operator("aten::_scaled_dot_product_flash_attention")->category, Category::kAttention);
  EXPECT_EQ(classify_operator("aten::_softmax_backward_data")->category, Category::kReduction);
  EXPECT_EQ(classify_operator("aten::threshold_backward")->category, Category::kElementwise);
  EXPECT_EQ(classify_operator("aten::max_pool2d_with_indices")->category, Category::kReduction);
  EXPECT_EQ(classify_operator("c10d::allreduce_")->category, Category::kCommunication);
  // Not listed and not a kernel name either.
  EXPECT_EQ(classify_operator("aten::empty"), std::nullopt);
  EXPECT_EQ(classify_operator("aten::view"), std::nullopt);
  EXPECT_EQ(classify_operator("aten::_convert_indices_from_coo_to_csr"), std::nullopt);
  // Annotations only match the table.
  EXPECT_EQ(classify_operator("attention_block", /*is_operator=*/false), std::nullopt);
  EXPECT_EQ(classify_operator("attention_block")->category, Category::kAttention);
  EXPECT_EQ(classify_operator("Optimizer.step#SGD.step", /*is_operator=*/false)->category, Category::kOptimizer);
  EXPECT_GT(operator_taxonomy_patterns().size(), 50u);
}

TEST(LaunchOpFallback, TheReportSaysHowEachCategoryWasDecided) {
  std::vector<Profile> ps;
  ps.push_back(training_step());
  AnalyzeReport r = analyze_profiles(ps, {});
  const RankAnalysis& a = r.ranks.at(0);
  std::map<std::string, CategoryDecisionRow> d;
  for (const auto& row : a.category_decisions) d[std::string(category_source_name(row.source))] = row;
  ASSERT_EQ(d.size(), 3u);  // name, launch_op, unknown
  EXPECT_EQ(d["name"].calls, 2);
  EXPECT_EQ(d["launch_op"].calls, 4);
  EXPECT_EQ(d["launch_op"].kernels, 4);
  EXPECT_EQ(d["unknown"].calls, 4);
  EXPECT_NEAR(d["unknown"].time_ms, 0.04, 1e-9);
  EXPECT_NEAR(d["name"].share + d["launch_op"].share + d["unknown"].share, 1.0, 1e-9);
  EXPECT_EQ(kernel(a, "kernel_0x1f2e").decided_by, CategorySource::kLaunchOp);
  EXPECT_EQ(kernel(a, "kernel_0x1f2e").rule, "convolution");
  // unknown_kernels stays the list of what ended up "other".
  EXPECT_EQ(a.unknown_kernels.size(), 4u);

  std::string text = analyze_text(r, 20);
  EXPECT_NE(text.find("category decided by: kernel name 20% (2 kernel names) | launching operator 40% (4 kernel "
                      "names) | nothing (other) 40% (4 kernel names)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("conv (op)"), std::string::npos) << text;

  nlohmann::ordered_json j = analyze_json(r, 20);
  const auto& rank = j["ranks"][0];
  ASSERT_EQ(rank["category_decisions"].size(), 3u);
  EXPECT_EQ(rank["category_decisions"][1]["decided_by"], "launch_op");
  bool seen = false;
  for (const auto& k : rank["kernels"]) {
    if (k["name"] == "opaque_blit") {
      seen = true;
      EXPECT_EQ(k["category"], "copy_cast");
      EXPECT_EQ(k["decided_by"], "launch_op");
      EXPECT_EQ(k["rule"], "=aten::copy_");
    }
  }
  EXPECT_TRUE(seen);
}

TEST(LaunchOpFallback, NamesDecideEverythingInTheBundledTracesAndTheTextIsUnchanged) {
  AnalyzeReport r = analyze_profiles(load_profiles({test::data_path("llama_bs4_decode.json.gz")}), {});
  for (const auto& d : r.ranks.at(0).category_decisions) {
    EXPECT_TRUE(d.source == CategorySource::kName || d.source == CategorySource::kKind)
        << category_source_name(d.source);
  }
  EXPECT_EQ(analyze_text(r, 20).find("category decided by"), std::string::npos);
}

// The same through the Kineto importer: tests/data/rocm_training_fallback_small.json is a
// hand-written ROCm-style trace (MI300X, hip* runtime calls) of a few training kernels.
TEST(LaunchOpFallback, RocmTrainingFixtureThroughTheImporter) {
  AnalyzeReport r = analyze_profiles(load_profiles({test::data_path("rocm_training_fallback_small.json")}), {});
  const RankAnalysis& a = r.ranks.at(0);
  EXPECT_EQ(a.device, "AMD Instinct MI300X");
  EXPECT_EQ(kernel(a, "gfx942_conv_bwd_weight_kernel_0").category, Category::kConv);
  EXPECT_EQ(kernel(a, "gfx942_conv_bwd_weight_kernel_0").decided_by, CategorySource::kLaunchOp);
  EXPECT_EQ(kernel(a, "krn_partials_per_segment").category, Category::kEmbedding);
  EXPECT_EQ(kernel(a, "MIOpenBatchNormFwdTrainSpatial").category, Category::kNorm);
  EXPECT_EQ(kernel(a, "MIOpenBatchNormFwdTrainSpatial").decided_by, CategorySource::kName);
  EXPECT_EQ(a.unknown_kernels, (std::vector<std::string>{"mystery_kernel_without_operator"}));
  std::map<std::string, double> share;
  for (const auto& c : a.categories) share[std::string(category_name(c.category))] = c.share;
  EXPECT_NEAR(share["other"], 5.0 / 217.0, 1e-6);
  EXPECT_NEAR(share["conv"], 140.0 / 217.0, 1e-6);
  EXPECT_NEAR(share["optimizer"], 25.0 / 217.0, 1e-6);
  const Finding* idle = nullptr;
  for (const auto& f : a.findings) {
    if (f.id == "gpu_idle") idle = &f;
  }
  ASSERT_NE(idle, nullptr);
  std::map<std::string, double> numbers(idle->numbers.begin(), idle->numbers.end());
  EXPECT_EQ(numbers.at("launches_per_step"), 7);  // hipLaunchKernel, hipExtModuleLaunchKernel, hipModuleLaunchKernel
  EXPECT_EQ(numbers.at("syncs_per_step"), 1);     // hipMemcpyWithStream (.item())
  EXPECT_NE(analyze_text(r, 20).find("| activity kind 0.9% (1 kernel name) |"), std::string::npos);
}

// How well the operator alone would have done: forget every kernel name in a real trace and
// let the fallback decide. Most GPU time must land where the names put it.
TEST(LaunchOpFallback, OnARealTraceTheOperatorsAgreeWithTheNames) {
  for (const char* file : {"llama_bs4_decode.json.gz", "dsv3_mla_moe_bs4_decode.json.gz",
                           "mla_fp8pool_fullcast_small.json.gz", "tp2_mlp_decode_rank0.json.gz"}) {
    Profile p = std::move(load_profiles({test::data_path(file)}).at(0));
    std::vector<KernelClass> by_name = classify_activities(p);
    std::vector<KernelClass> by_op(p.gpu.size());
    for (std::size_t i = 0; i < p.gpu.size(); ++i) {
      if (by_name[i].decided_by == CategorySource::kKind) by_op[i] = by_name[i];
    }
    apply_launch_op_fallback(p, by_op);
    double kernel_ns = 0, decided_ns = 0, agree_ns = 0;
    for (std::size_t i = 0; i < p.gpu.size(); ++i) {
      if (by_name[i].decided_by != CategorySource::kName) continue;
      auto d = static_cast<double>(p.gpu[i].duration());
      kernel_ns += d;
      if (by_op[i].decided_by == CategorySource::kLaunchOp) decided_ns += d;
      if (by_op[i].category == by_name[i].category) agree_ns += d;
    }
    // 99.9-100% on each when written; the operator table was completed on these traces.
    EXPECT_GT(decided_ns / kernel_ns, 0.95) << file;
    EXPECT_GT(agree_ns / kernel_ns, 0.95) << file;
    std::printf("%s: operators decide %.1f%% of kernel time, agreeing with the names on %.1f%%\n", file,
                100 * decided_ns / kernel_ns, 100 * agree_ns / kernel_ns);
  }
}

}  // namespace
}  // namespace cuprobe
