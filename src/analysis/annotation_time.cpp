#include "analysis/annotation_time.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/track_keys.h"

namespace cuprobe {
namespace {

// One annotation range: its row, the range around it on its thread, and the span of what it launched.
struct Instance {
  std::int32_t row = -1;
  std::int32_t parent = -1;
  TimeNs end = 0;  // the range's own end (CPU)
  TimeNs first_start = INT64_MAX;
  TimeNs last_end = INT64_MIN;
};

}  // namespace

std::string annotation_row_name(std::string_view name) {
  std::size_t hash = name.rfind('#');
  if (hash == std::string_view::npos || hash + 1 == name.size()) return std::string(name);
  for (std::size_t i = hash + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::string(name);
  }
  return std::string(name.substr(0, hash + 1)) + "N";
}

std::vector<AnnotationRow> annotation_time(const Profile& profile, const LaunchLinks& links,
                                           const StepAssignment& steps, double gpu_time_ms) {
  std::vector<AnnotationRow> rows;
  bool any = std::any_of(profile.cpu.begin(), profile.cpu.end(),
                         [](const CpuRange& r) { return r.kind == CpuRangeKind::kAnnotation; });
  if (!any) return rows;
  std::vector<std::int32_t> innermost(profile.cpu.size(),
                                      -2);  // per launch call: its innermost instance; -2: no launch
  for (std::int32_t call : links.launch) {
    if (call >= 0) innermost[static_cast<std::size_t>(call)] = -1;
  }
  // One walk in start order: per thread the open annotations, innermost last.
  std::unordered_map<StringId, std::int32_t> row_of_id;
  std::unordered_map<std::string, std::int32_t> row_of_name;
  std::vector<Instance> instances;
  std::unordered_map<ThreadKey, std::vector<std::int32_t>, ThreadKeyHash> open;  // instance ids
  for (std::size_t j = 0; j < profile.cpu.size(); ++j) {
    const CpuRange& r = profile.cpu[j];
    bool annotation = r.kind == CpuRangeKind::kAnnotation;
    if (!annotation && innermost[j] == -2) continue;
    std::vector<std::int32_t>& stack = open[ThreadKey{r.pid, r.tid}];
    while (!stack.empty() && instances[static_cast<std::size_t>(stack.back())].end < r.end) stack.pop_back();
    std::int32_t parent = stack.empty() ? -1 : stack.back();
    if (!annotation) {
      innermost[j] = parent;
      continue;
    }
    auto [id_row, fresh_id] = row_of_id.try_emplace(r.name, 0);
    if (fresh_id) {
      std::string name = annotation_row_name(profile.name_of(r.name));
      auto [name_row, fresh_name] = row_of_name.try_emplace(name, static_cast<std::int32_t>(rows.size()));
      if (fresh_name) rows.push_back(AnnotationRow{.name = std::move(name)});
      id_row->second = name_row->second;
    }
    ++rows[static_cast<std::size_t>(id_row->second)].ranges;
    stack.push_back(static_cast<std::int32_t>(instances.size()));
    instances.push_back(Instance{.row = id_row->second, .parent = parent, .end = r.end});
  }
  // Each activity counts once for every name around its launch (a name nested in itself counts once).
  std::vector<TimeNs> gpu_ns(rows.size(), 0), in_steps_ns(rows.size(), 0);
  std::vector<std::int32_t> seen;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    std::int32_t call = links.launch[i];
    if (call < 0) continue;
    std::int32_t inst = innermost[static_cast<std::size_t>(call)];
    if (inst < 0) continue;
    const GpuActivity& a = profile.gpu[i];
    bool in_step = i < steps.activity_step.size() && steps.activity_step[i] >= 0;
    seen.clear();
    for (std::int32_t k = inst; k >= 0; k = instances[static_cast<std::size_t>(k)].parent) {
      Instance& in = instances[static_cast<std::size_t>(k)];
      in.first_start = std::min(in.first_start, a.start);
      in.last_end = std::max(in.last_end, a.end);
      if (std::find(seen.begin(), seen.end(), in.row) != seen.end()) continue;
      seen.push_back(in.row);
      auto row = static_cast<std::size_t>(in.row);
      ++rows[row].activities;
      gpu_ns[row] += a.duration();
      if (in_step) in_steps_ns[row] += a.duration();
    }
  }
  std::vector<TimeNs> span_ns(rows.size(), 0);
  for (const Instance& in : instances) {
    if (in.first_start > in.last_end) continue;  // launched nothing
    auto row = static_cast<std::size_t>(in.row);
    ++rows[row].ranges_with_gpu;
    span_ns[row] += in.last_end - in.first_start;
  }
  const double step_count = static_cast<double>(steps.summary.steps.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r].gpu_ms = static_cast<double>(gpu_ns[r]) / 1e6;
    rows[r].gpu_span_ms = static_cast<double>(span_ns[r]) / 1e6;
    rows[r].share = gpu_time_ms > 0 ? rows[r].gpu_ms / gpu_time_ms : 0;
    rows[r].per_step_ms = step_count > 0 ? static_cast<double>(in_steps_ns[r]) / 1e6 / step_count : 0;
  }
  std::sort(rows.begin(), rows.end(), [](const AnnotationRow& a, const AnnotationRow& b) {
    return a.gpu_ms != b.gpu_ms ? a.gpu_ms > b.gpu_ms : a.name < b.name;
  });
  return rows;
}

}  // namespace cuprobe
