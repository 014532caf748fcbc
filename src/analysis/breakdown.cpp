#include "analysis/breakdown.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/interval_union.h"
#include "analysis/kernel_taxonomy_ops.h"
#include "analysis/launch_context.h"
#include "common/percentile.h"
#include "model/time_range.h"

namespace cuprobe {

void apply_launch_op_fallback(const Profile& profile, std::vector<KernelClass>& classes) {
  std::vector<std::int64_t> unknown;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (classes[i].decided_by == CategorySource::kUnknown && profile.gpu[i].correlation >= 0) {
      unknown.push_back(profile.gpu[i].correlation);
    }
  }
  const CorrelationIndex wanted(std::move(unknown));
  std::unordered_map<std::int64_t, OperatorClass> by_correlation;
  std::unordered_map<StringId, std::optional<OperatorClass>> cache;
  auto classify = [&](const CpuRange& r) -> const std::optional<OperatorClass>& {
    auto it = cache.find(r.name);
    if (it == cache.end()) {
      it = cache.emplace(r.name, classify_operator(profile.name_of(r.name), r.kind == CpuRangeKind::kOperator)).first;
    }
    return it->second;
  };
  for_each_launch_with_enclosing(profile, wanted, [&](const CpuRange& launch, std::span<const CpuRange* const> ops) {
    if (is_graph_launch_call(profile.name_of(launch.name))) return;
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {  // innermost first
      if (const auto& c = classify(**it)) {
        by_correlation.try_emplace(launch.correlation, *c);
        return;
      }
    }
  });
  std::unordered_map<std::int64_t, const CpuRange*> by_external_id;  // for kernels the launches did not decide
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (classes[i].decided_by != CategorySource::kUnknown) continue;
    auto it = by_correlation.find(profile.gpu[i].correlation);
    if (it == by_correlation.end()) {
      if (profile.gpu[i].external_id >= 0) by_external_id.emplace(profile.gpu[i].external_id, nullptr);
      continue;
    }
    classes[i].category = it->second.category;
    classes[i].rule = it->second.rule;
    classes[i].decided_by = CategorySource::kLaunchOp;
  }
  if (by_external_id.empty()) return;
  // Kineto gives a kernel its operator's "External id" (ROCm traces may lack the launch's correlation).
  for (const CpuRange& r : profile.cpu) {
    if (r.kind != CpuRangeKind::kOperator || r.external_id < 0) continue;
    auto it = by_external_id.find(r.external_id);
    if (it != by_external_id.end() && !it->second) it->second = &r;
  }
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (classes[i].decided_by != CategorySource::kUnknown || profile.gpu[i].external_id < 0) continue;
    auto it = by_external_id.find(profile.gpu[i].external_id);
    if (it == by_external_id.end() || !it->second) continue;
    const auto& c = classify(*it->second);
    if (!c) continue;
    classes[i].category = c->category;
    classes[i].rule = c->rule;
    classes[i].decided_by = CategorySource::kLaunchOp;
  }
}

std::vector<KernelClass> classify_activities(const Profile& profile) {
  std::unordered_map<StringId, KernelClass> cache;
  std::vector<KernelClass> classes;
  classes.reserve(profile.gpu.size());
  for (const auto& a : profile.gpu) {
    KernelClass k;
    if (a.kind == GpuActivityKind::kMemcpy) {
      k.category = Category::kMemcpy;
      k.tensor_core = false;
      k.decided_by = CategorySource::kKind;
    } else if (a.kind == GpuActivityKind::kMemset) {
      k.category = Category::kMemset;
      k.tensor_core = false;
      k.decided_by = CategorySource::kKind;
    } else if (a.kind == GpuActivityKind::kGraph) {
      k.category = Category::kCudaGraph;  // what runs inside is unseen: tensor cores unknown
      k.decided_by = CategorySource::kKind;
    } else {
      auto it = cache.find(a.name);
      if (it == cache.end()) it = cache.emplace(a.name, classify_kernel(profile.name_of(a.name))).first;
      k = it->second;
    }
    classes.push_back(k);
  }
  apply_launch_op_fallback(profile, classes);
  return classes;
}

void compute_breakdown(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       RankAnalysis& out) {
  struct Totals {
    TimeNs time = 0;
    TimeNs in_steps = 0;
    std::int64_t calls = 0;
  };
  std::vector<Totals> by_category(kCategoryCount);
  std::vector<Totals> by_source(kCategorySourceCount);
  std::unordered_map<StringId, Totals> by_name;
  std::unordered_map<StringId, std::size_t> first_index;
  // Time per step by category and by kernel name, for the per-step medians.
  const std::size_t step_count_n = steps.summary.steps.size();
  std::vector<std::vector<TimeNs>> category_steps(kCategoryCount);
  std::unordered_map<StringId, std::vector<TimeNs>> name_steps;
  TimeNs tensor_core_time = 0, tensor_basis = 0;
  std::vector<double> step_tensor(step_count_n, 0.0), step_tensor_basis(step_count_n, 0.0);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    TimeNs d = a.duration();
    bool in_step = steps.activity_step[i] >= 0;
    auto& c = by_category[static_cast<std::size_t>(classes[i].category)];
    c.time = saturating_add(c.time, d);
    c.calls += 1;
    if (in_step) c.in_steps = saturating_add(c.in_steps, d);
    auto& src = by_source[static_cast<std::size_t>(classes[i].decided_by)];
    src.time = saturating_add(src.time, d);
    src.calls += 1;
    auto& k = by_name[a.name];
    k.time = saturating_add(k.time, d);
    k.calls += 1;
    if (in_step) {
      k.in_steps = saturating_add(k.in_steps, d);
      auto s = static_cast<std::size_t>(steps.activity_step[i]);
      auto cat = static_cast<std::size_t>(classes[i].category);
      auto& per_cat = category_steps[cat];
      if (per_cat.empty()) per_cat.resize(step_count_n);
      per_cat[s] = saturating_add(per_cat[s], d);
      auto& per_name = name_steps[a.name];
      if (per_name.empty()) per_name.resize(step_count_n);
      per_name[s] = saturating_add(per_name[s], d);
      if (s < out.steps.steps.size()) out.steps.steps[s].category_ns[cat] = per_cat[s];
    }
    first_index.try_emplace(a.name, i);
    // The tensor-core share's basis: the summed time of what is seen (whole graph launches hide their kernels).
    if (a.kind == GpuActivityKind::kGraph) continue;
    const bool tensor = classes[i].tensor_core.value_or(false);
    tensor_basis = saturating_add(tensor_basis, d);
    if (tensor) tensor_core_time = saturating_add(tensor_core_time, d);
    if (in_step && static_cast<std::size_t>(steps.activity_step[i]) < step_count_n) {
      auto s = static_cast<std::size_t>(steps.activity_step[i]);
      step_tensor_basis[s] += static_cast<double>(d);
      if (tensor) step_tensor[s] += static_cast<double>(d);
    }
  }
  const double busy_ns = out.gpu_time_ms() * 1e6;
  // Time over GPU busy time: over 1 where activities overlap, so not called a share (docs/findings.md).
  auto busy_ratio = [&](TimeNs t) { return busy_ns > 0 ? static_cast<double>(t) / busy_ns : 0.0; };
  const double step_count = static_cast<double>(steps.summary.steps.size());
  auto per_step_ms = [&](TimeNs t) { return step_count > 0 ? static_cast<double>(t) / 1e6 / step_count : 0.0; };
  auto median_ms = [](const std::vector<TimeNs>& per_step) {
    if (per_step.empty()) return 0.0;
    std::vector<double> ms(per_step.begin(), per_step.end());
    return percentile(std::move(ms), 50) / 1e6;
  };

  for (int c = 0; c < kCategoryCount; ++c) {
    const auto& t = by_category[static_cast<std::size_t>(c)];
    if (t.calls == 0) continue;
    CategoryRow row{static_cast<Category>(c), static_cast<double>(t.time) / 1e6};
    row.busy_ratio = busy_ratio(t.time);
    row.calls = t.calls;
    row.per_step_ms = per_step_ms(t.in_steps);
    row.per_step_median_ms = median_ms(category_steps[static_cast<std::size_t>(c)]);
    out.categories.push_back(row);
  }
  std::sort(out.categories.begin(), out.categories.end(),
            [](const CategoryRow& a, const CategoryRow& b) { return a.time_ms > b.time_ms; });
  TimeNs summed = 0;
  for (const auto& t : by_category) summed = saturating_add(summed, t.time);
  out.summed_ms = static_cast<double>(summed) / 1e6;
  auto summed_share = [&](TimeNs t) { return summed > 0 ? static_cast<double>(t) / static_cast<double>(summed) : 0.0; };
  for (auto& c : out.categories) {
    c.summed_share = summed_share(by_category[static_cast<std::size_t>(c.category)].time);
    c.share = c.summed_share;
  }
  for (int s = 0; s < kCategorySourceCount; ++s) {
    const auto& t = by_source[static_cast<std::size_t>(s)];
    if (t.calls > 0) {
      out.category_decisions.push_back(
          {static_cast<CategorySource>(s), static_cast<double>(t.time) / 1e6, summed_share(t.time), t.calls, 0});
    }
  }

  for (const auto& [name, t] : by_name) {
    const KernelClass& cls = classes[first_index[name]];
    KernelRow row;
    row.name = std::string(profile.name_of(name));
    row.category = cls.category;
    row.tensor_core = cls.tensor_core;
    row.precision = cls.precision;
    row.decided_by = cls.decided_by;
    row.rule = std::string(cls.rule);
    row.calls = t.calls;
    row.time_ms = static_cast<double>(t.time) / 1e6;
    row.busy_ratio = busy_ratio(t.time);
    row.summed_share = summed_share(t.time);
    row.share = row.summed_share;
    row.mean_us = static_cast<double>(t.time) / 1e3 / static_cast<double>(t.calls);
    row.per_step_ms = per_step_ms(t.in_steps);
    if (auto it = name_steps.find(name); it != name_steps.end()) row.per_step_median_ms = median_ms(it->second);
    out.kernels.push_back(std::move(row));
  }
  std::sort(out.kernels.begin(), out.kernels.end(), [](const KernelRow& a, const KernelRow& b) {
    return a.time_ms != b.time_ms ? a.time_ms > b.time_ms : a.name < b.name;
  });
  for (const auto& k : out.kernels) {
    if (k.category == Category::kOther) out.unknown_kernels.push_back(k.name);
    for (auto& d : out.category_decisions) {
      if (d.source == k.decided_by) ++d.kernels;
    }
  }
  // One tensor-core share per rank, defined here only (header, findings, page and JSON read it): tensor-core time
  // over the summed time of the activities that are not whole graph launches; the median over steps with GPU work,
  // the whole window without steps. The window's figure is kept beside it under its own name.
  out.tensor_core_basis_ms = static_cast<double>(tensor_basis) / 1e6;
  out.tensor_core_hidden_ms = static_cast<double>(summed - tensor_basis) / 1e6;
  out.tensor_core_share_window =
      tensor_basis > 0 ? static_cast<double>(tensor_core_time) / static_cast<double>(tensor_basis) : 0.0;
  std::vector<double> per_step;
  for (std::size_t s = 0; s < step_count_n; ++s) {
    if (steps.summary.steps[s].activities == 0) continue;
    per_step.push_back(step_tensor_basis[s] > 0 ? step_tensor[s] / step_tensor_basis[s] : 0.0);
  }
  out.tensor_core_per_step = !per_step.empty();
  out.tensor_core_share = per_step.empty() ? out.tensor_core_share_window : percentile(std::move(per_step), 50);
}

}  // namespace cuprobe
