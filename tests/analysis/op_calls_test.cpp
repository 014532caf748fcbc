// OperatorCalls on real torch traces: every operator in order, each with exactly the GPU activities launched
// inside it on its thread, in launch order, a nested call's a part of its parent's.
#include "analysis/op_calls.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "import/load_profiles.h"
#include "support/test_paths.h"

namespace cuprobe {
namespace {

struct Launch {
  const CpuRange* range;
  std::size_t activities;
};

void expect_calls_match_launches(const std::string& file) {
  SCOPED_TRACE(file);
  const Profile p = std::move(load_profiles({std::string(CUPROBE_TEST_DATA_DIR) + "/" + file}).at(0));
  const OperatorCalls calls(p);
  std::size_t operators = 0;
  for (const CpuRange& r : p.cpu) operators += r.kind == CpuRangeKind::kOperator ? 1 : 0;
  ASSERT_EQ(calls.size(), operators);
  ASSERT_GT(operators, 0u);

  // Each correlation's first launch call, with how many activities it launched; per thread, by start.
  std::unordered_map<std::int64_t, const CpuRange*> first_launch;
  for (const CpuRange& r : p.cpu) {
    if (r.kind == CpuRangeKind::kRuntime && r.correlation >= 0) first_launch.try_emplace(r.correlation, &r);
  }
  std::map<const CpuRange*, std::size_t> launched;
  for (const GpuActivity& a : p.gpu) {
    if (auto it = first_launch.find(a.correlation); it != first_launch.end()) ++launched[it->second];
  }
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Launch>> by_thread;
  for (const auto& [r, n] : launched) by_thread[{r->pid, r->tid}].push_back({r, n});
  for (auto& [thread, v] : by_thread)
    std::sort(v.begin(), v.end(), [](const Launch& a, const Launch& b) { return a.range->start < b.range->start; });

  std::size_t with_activities = 0;
  std::vector<std::size_t> open;  // the enclosing calls of the current one on its thread
  for (std::size_t k = 0; k < calls.size(); ++k) {
    const OpCall c = calls[k];
    const CpuRange& r = p.cpu[c.range];
    ASSERT_EQ(r.kind, CpuRangeKind::kOperator);
    ASSERT_EQ(c.name, p.name_of(r.name));
    if (k > 0) {
      const CpuRange& prev = p.cpu[calls[k - 1].range];
      ASSERT_TRUE(prev.start < r.start || (prev.start == r.start && prev.end >= r.end)) << k;
    }
    // Launched inside it, on its thread: what its activities must number.
    std::size_t expected = 0;
    if (auto t = by_thread.find({r.pid, r.tid}); t != by_thread.end()) {
      for (const Launch& l : t->second) {
        if (l.range->start >= r.start && l.range->end <= r.end) expected += l.activities;
      }
    }
    ASSERT_EQ(c.activities.size(), expected) << c.name << " at " << r.start;
    with_activities += expected > 0 ? 1 : 0;
    TimeNs last_launch = r.start;
    for (std::uint32_t i : c.activities) {
      ASSERT_LT(i, p.gpu.size());
      const CpuRange* l = first_launch.at(p.gpu[i].correlation);
      ASSERT_EQ(l->tid, r.tid);
      ASSERT_GE(l->start, last_launch);  // in launch order
      last_launch = l->start;
    }
    // A nested call's activities are among its parent's.
    while (!open.empty() && (calls[open.back()].tid != c.tid || p.cpu[calls[open.back()].range].end < r.end))
      open.pop_back();
    if (c.depth > 0 && !open.empty() && !c.activities.empty()) {
      const OpCall parent = calls[open.back()];
      for (std::uint32_t i : c.activities)
        ASSERT_NE(std::find(parent.activities.begin(), parent.activities.end(), i), parent.activities.end());
    }
    open.push_back(k);
  }
  EXPECT_GT(with_activities, 0u);
}

TEST(OperatorCalls, EachCallHoldsWhatWasLaunchedInsideIt) {
  for (const char* file :
       {"h200_llama_generate_with_stack_excerpt.json.gz", "llama_bs4_decode.json.gz", "tp2_mlp_decode_rank0.json.gz",
        "fp8_cast_shapes.json", "zoo/traces/alloc_churn/bug/shapes.json.gz"})
    expect_calls_match_launches(file);
}

}  // namespace
}  // namespace cuprobe
