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

namespace {

struct Totals {
  TimeNs time = 0;
  TimeNs in_steps = 0;
  std::int64_t calls = 0;

  void add(TimeNs d, bool in_step) {
    time = saturating_add(time, d);
    calls += 1;
    if (in_step) in_steps = saturating_add(in_steps, d);
  }
};

// One pass over the GPU activities: time by category, by decision source and by kernel name, each per step too
// (for the per-step medians), and the tensor-core time beside its basis.
struct ActivitySums {
  std::vector<Totals> by_category = std::vector<Totals>(kCategoryCount);
  std::vector<Totals> by_source = std::vector<Totals>(kCategorySourceCount);
  std::unordered_map<StringId, Totals> by_name;
  std::unordered_map<StringId, std::size_t> first_index;  // a name's first activity, whose class the row takes
  std::vector<std::vector<TimeNs>> category_steps = std::vector<std::vector<TimeNs>>(kCategoryCount);
  std::unordered_map<StringId, std::vector<TimeNs>> name_steps;
  TimeNs tensor_core_time = 0, tensor_basis = 0;
  std::vector<double> step_tensor, step_tensor_basis;
};

// Sums every activity; also fills each step's category_ns.
ActivitySums sum_activities(const Profile& profile, const std::vector<KernelClass>& classes,
                            const StepAssignment& steps, std::vector<Step>& out_steps) {
  const std::size_t step_count_n = steps.summary.steps.size();
  ActivitySums sums;
  sums.step_tensor.assign(step_count_n, 0.0);
  sums.step_tensor_basis.assign(step_count_n, 0.0);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    TimeNs d = a.duration();
    bool in_step = steps.activity_step[i] >= 0;
    sums.by_category[static_cast<std::size_t>(classes[i].category)].add(d, in_step);
    sums.by_source[static_cast<std::size_t>(classes[i].decided_by)].add(d, false);
    sums.by_name[a.name].add(d, in_step);
    if (in_step) {
      auto s = static_cast<std::size_t>(steps.activity_step[i]);
      auto cat = static_cast<std::size_t>(classes[i].category);
      auto& per_cat = sums.category_steps[cat];
      if (per_cat.empty()) per_cat.resize(step_count_n);
      per_cat[s] = saturating_add(per_cat[s], d);
      auto& per_name = sums.name_steps[a.name];
      if (per_name.empty()) per_name.resize(step_count_n);
      per_name[s] = saturating_add(per_name[s], d);
      if (s < out_steps.size()) out_steps[s].category_ns[cat] = per_cat[s];
    }
    sums.first_index.try_emplace(a.name, i);
    // The tensor-core share's basis: the summed time of what is seen (whole graph launches hide their kernels).
    if (a.kind == GpuActivityKind::kGraph) continue;
    const bool tensor = classes[i].tensor_core.value_or(false);
    sums.tensor_basis = saturating_add(sums.tensor_basis, d);
    if (tensor) sums.tensor_core_time = saturating_add(sums.tensor_core_time, d);
    if (in_step && static_cast<std::size_t>(steps.activity_step[i]) < step_count_n) {
      auto s = static_cast<std::size_t>(steps.activity_step[i]);
      sums.step_tensor_basis[s] += static_cast<double>(d);
      if (tensor) sums.step_tensor[s] += static_cast<double>(d);
    }
  }
  return sums;
}

// What a row's time is divided by: GPU busy time, the step count, the summed time.
struct Scale {
  double busy_ns = 0;
  double step_count = 0;
  TimeNs summed = 0;

  // Time over GPU busy time: over 1 where activities overlap, so not called a share (docs/findings.md).
  double busy_ratio(TimeNs t) const { return busy_ns > 0 ? static_cast<double>(t) / busy_ns : 0.0; }
  double per_step_ms(TimeNs t) const { return step_count > 0 ? static_cast<double>(t) / 1e6 / step_count : 0.0; }
  double summed_share(TimeNs t) const {
    return summed > 0 ? static_cast<double>(t) / static_cast<double>(summed) : 0.0;
  }
  static double median_ms(const std::vector<TimeNs>& per_step) {
    if (per_step.empty()) return 0.0;
    std::vector<double> ms(per_step.begin(), per_step.end());
    return percentile(std::move(ms), 50) / 1e6;
  }
};

// The category rows, longest first, and the time decided by each source.
void add_category_rows(const ActivitySums& sums, const Scale& scale, RankAnalysis& out) {
  for (int c = 0; c < kCategoryCount; ++c) {
    const auto& t = sums.by_category[static_cast<std::size_t>(c)];
    if (t.calls == 0) continue;
    CategoryRow row{static_cast<Category>(c), static_cast<double>(t.time) / 1e6};
    row.busy_ratio = scale.busy_ratio(t.time);
    row.calls = t.calls;
    row.per_step_ms = scale.per_step_ms(t.in_steps);
    row.per_step_median_ms = Scale::median_ms(sums.category_steps[static_cast<std::size_t>(c)]);
    out.categories.push_back(row);
  }
  std::sort(out.categories.begin(), out.categories.end(),
            [](const CategoryRow& a, const CategoryRow& b) { return a.time_ms > b.time_ms; });
  for (auto& c : out.categories) {
    c.summed_share = scale.summed_share(sums.by_category[static_cast<std::size_t>(c.category)].time);
    c.share = c.summed_share;
  }
  for (int s = 0; s < kCategorySourceCount; ++s) {
    const auto& t = sums.by_source[static_cast<std::size_t>(s)];
    if (t.calls > 0) {
      out.category_decisions.push_back(
          {static_cast<CategorySource>(s), static_cast<double>(t.time) / 1e6, scale.summed_share(t.time), t.calls, 0});
    }
  }
}

// The kernel rows, longest first (ties by name); the unknown kernels and each decision source's kernel count.
void add_kernel_rows(const Profile& profile, const std::vector<KernelClass>& classes, const ActivitySums& sums,
                     const Scale& scale, RankAnalysis& out) {
  for (const auto& [name, t] : sums.by_name) {
    const KernelClass& cls = classes[sums.first_index.at(name)];
    KernelRow row;
    row.name = std::string(profile.name_of(name));
    row.category = cls.category;
    row.tensor_core = cls.tensor_core;
    row.precision = cls.precision;
    row.decided_by = cls.decided_by;
    row.rule = std::string(cls.rule);
    row.calls = t.calls;
    row.time_ms = static_cast<double>(t.time) / 1e6;
    row.busy_ratio = scale.busy_ratio(t.time);
    row.summed_share = scale.summed_share(t.time);
    row.share = row.summed_share;
    row.mean_us = static_cast<double>(t.time) / 1e3 / static_cast<double>(t.calls);
    row.per_step_ms = scale.per_step_ms(t.in_steps);
    if (auto it = sums.name_steps.find(name); it != sums.name_steps.end()) {
      row.per_step_median_ms = Scale::median_ms(it->second);
    }
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
}

// One tensor-core share per rank, defined here only (header, findings, page and JSON read it): tensor-core time
// over the summed time of the activities that are not whole graph launches; the median over steps with GPU work,
// the whole window without steps. The window's figure is kept beside it under its own name.
void add_tensor_core_share(const ActivitySums& sums, const StepAssignment& steps, TimeNs summed, RankAnalysis& out) {
  out.tensor_core_basis_ms = static_cast<double>(sums.tensor_basis) / 1e6;
  out.tensor_core_hidden_ms = static_cast<double>(summed - sums.tensor_basis) / 1e6;
  out.tensor_core_share_window =
      sums.tensor_basis > 0 ? static_cast<double>(sums.tensor_core_time) / static_cast<double>(sums.tensor_basis) : 0.0;
  std::vector<double> per_step;
  for (std::size_t s = 0; s < steps.summary.steps.size(); ++s) {
    if (steps.summary.steps[s].activities == 0) continue;
    per_step.push_back(sums.step_tensor_basis[s] > 0 ? sums.step_tensor[s] / sums.step_tensor_basis[s] : 0.0);
  }
  out.tensor_core_per_step = !per_step.empty();
  out.tensor_core_share = per_step.empty() ? out.tensor_core_share_window : percentile(std::move(per_step), 50);
}

}  // namespace

void compute_breakdown(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       RankAnalysis& out) {
  const ActivitySums sums = sum_activities(profile, classes, steps, out.steps.steps);
  Scale scale{out.gpu_time_ms() * 1e6, static_cast<double>(steps.summary.steps.size())};
  for (const auto& t : sums.by_category) scale.summed = saturating_add(scale.summed, t.time);
  out.summed_ms = static_cast<double>(scale.summed) / 1e6;
  add_category_rows(sums, scale, out);
  add_kernel_rows(profile, classes, sums, scale, out);
  add_tensor_core_share(sums, steps, scale.summed, out);
}

}  // namespace cuprobe
