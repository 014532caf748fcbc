#include "analysis/finding_sources.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "analysis/launch_context.h"
#include "model/python_frame.h"

namespace cuprobe {
namespace {

constexpr std::size_t kSourcesShown = 3;

// One pass over profile.cpu (sorted by start): a stack of open user frames per thread; each runtime call takes
// the innermost. by_process: threads of a process share one stack (a trace whose frames and calls are on
// different thread ids).
void walk(const Profile& profile, bool by_process, std::unordered_map<std::int64_t, StringId>& frame_of_call,
          std::vector<std::pair<StringId, double>>& synchronizes) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const CpuRange*>> open;
  for (const CpuRange& r : profile.cpu) {
    if (r.kind != CpuRangeKind::kPython && r.kind != CpuRangeKind::kRuntime) continue;
    auto& stack = open[{r.pid, by_process ? 0 : r.tid}];
    while (!stack.empty() && stack.back()->end <= r.start) stack.pop_back();
    if (r.kind == CpuRangeKind::kPython) {
      stack.push_back(&r);
      continue;
    }
    if (stack.empty()) continue;
    if (r.correlation >= 0) frame_of_call.emplace(r.correlation, stack.back()->name);
    if (is_synchronizing_call(profile.name_of(r.name)))
      synchronizes.emplace_back(stack.back()->name, static_cast<double>(r.end - r.start) / 1e6);
  }
}

}  // namespace

LaunchSources launch_sources(const Profile& profile) {
  LaunchSources out;
  out.of_activity.assign(profile.gpu.size(), kNoString);
  bool frames = std::any_of(profile.cpu.begin(), profile.cpu.end(),
                            [](const CpuRange& r) { return r.kind == CpuRangeKind::kPython; });
  if (!frames) return out;
  std::unordered_map<std::int64_t, StringId> frame_of_call;
  for (bool by_process : {false, true}) {
    frame_of_call.clear();
    out.synchronizes.clear();
    walk(profile, by_process, frame_of_call, out.synchronizes);
    if (!frame_of_call.empty()) break;
  }
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    auto it = frame_of_call.find(profile.gpu[i].correlation);
    if (it == frame_of_call.end()) continue;
    out.of_activity[i] = it->second;
    out.any = true;
  }
  return out;
}

std::vector<SourceLine> rank_sources(const Profile& profile, const std::vector<std::pair<StringId, double>>& timed,
                                     std::size_t n) {
  std::map<StringId, double> by_frame;
  double total = 0;
  for (const auto& [frame, ms] : timed) {
    total += ms;
    if (frame != kNoString) by_frame[frame] += ms;
  }
  std::vector<std::pair<StringId, double>> order(by_frame.begin(), by_frame.end());
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<SourceLine> lines;
  for (const auto& [frame, ms] : order) {
    if (lines.size() == n || total <= 0) break;
    auto f = parse_python_frame(profile.name_of(frame));
    if (!f) continue;
    lines.push_back({std::string(f->file), f->line, std::string(f->function), ms / total, ms});
  }
  return lines;
}

void add_finding_sources(const Profile& profile, const StepAssignment& steps, std::vector<Finding>& findings) {
  LaunchSources sources = launch_sources(profile);
  if (!sources.any && sources.synchronizes.empty()) return;
  auto counted = [&](std::size_t i) { return steps.summary.steps.empty() || steps.activity_step[i] >= 0; };
  for (Finding& f : findings) {
    std::vector<std::pair<StringId, double>> timed;
    if (f.id == "gpu_idle") {
      timed = sources.synchronizes;  // where the host waits
    } else if (!f.claim.activity_ms.empty()) {
      for (const auto& [i, ms] : f.claim.activity_ms) timed.emplace_back(sources.of_activity[i], ms);
    } else if (!f.kernels.empty()) {
      std::unordered_set<std::string_view> names(f.kernels.begin(), f.kernels.end());
      for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
        if (counted(i) && names.count(profile.name_of(profile.gpu[i].name)))
          timed.emplace_back(sources.of_activity[i], static_cast<double>(profile.gpu[i].duration()) / 1e6);
      }
    }
    f.sources = rank_sources(profile, timed, kSourcesShown);
  }
}

}  // namespace cuprobe
