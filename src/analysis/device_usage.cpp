#include "analysis/device_usage.h"

#include <algorithm>
#include <map>

#include "analysis/interval_union.h"
#include "common/percentile.h"

namespace cuprobe {
namespace {

std::string device_name(const Profile& p, std::int32_t id) {
  for (const auto& d : p.devices) {
    if (d.id == id) return d.name;
  }
  return {};
}

double share_of(double part, double whole) { return whole > 0 ? std::clamp(part / whole, 0.0, 1.0) : 0.0; }

}  // namespace

void fill_device_usage(const Profile& profile, const StepAssignment& steps, RankAnalysis& out) {
  std::map<std::int32_t, std::size_t> index;  // device -> row
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (i == 0 || profile.gpu[i].device != profile.gpu[i - 1].device) index.emplace(profile.gpu[i].device, 0);
  }
  out.devices.clear();
  out.overlapped_step_ms = 0;
  for (auto& [device, row] : index) {
    row = out.devices.size();
    out.devices.push_back({device, device_name(profile, device)});
  }
  const bool with_steps = !steps.summary.steps.empty() && steps.summary.median_ms > 0;
  if (out.devices.size() == 1) {  // the rank's own figures
    DeviceRow& d = out.devices.front();
    d.activities = out.gpu_activities;
    d.busy_ms = out.gpu_busy_ms;
    d.busy_share = out.gpu_busy_share;
    d.step_busy_median_ms = with_steps ? steps.summary.gpu_median_ms : 0.0;
    d.idle_share = with_steps ? share_of(steps.summary.median_ms - d.step_busy_median_ms, steps.summary.median_ms)
                              : share_of(out.window_ms - d.busy_ms, out.window_ms);
    return;
  }

  const std::size_t n_steps = steps.summary.steps.size();
  std::vector<std::vector<Interval>> whole(out.devices.size());
  std::vector<std::vector<std::vector<Interval>>> per_step(out.devices.size(),
                                                           std::vector<std::vector<Interval>>(n_steps));
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    std::size_t row = index[a.device];
    ++out.devices[row].activities;
    whole[row].emplace_back(a.start, a.end);
    if (int s = steps.activity_step[i]; s >= 0) per_step[row][static_cast<std::size_t>(s)].emplace_back(a.start, a.end);
  }
  double busiest_ms = 0;
  for (std::size_t row = 0; row < out.devices.size(); ++row) {
    DeviceRow& d = out.devices[row];
    d.busy_ms = static_cast<double>(union_length(whole[row])) / 1e6;
    d.busy_share = share_of(d.busy_ms, out.window_ms);
    busiest_ms = std::max(busiest_ms, d.busy_ms);
  }
  if (!with_steps) {
    for (DeviceRow& d : out.devices) {
      d.idle_share = share_of(out.window_ms - d.busy_ms, out.window_ms);
      d.waiting_share = share_of(out.gpu_busy_ms - d.busy_ms, out.window_ms);
    }
    out.overlapped_step_ms = out.window_ms - out.gpu_busy_ms + busiest_ms;
    return;
  }
  // Per step with GPU work (the steps the step-time median is over): each GPU's busy time, its wait while
  // another works (the step's any-GPU busy time less its own), and the step with the GPUs overlapped.
  std::vector<std::vector<double>> busy(out.devices.size()), waiting(out.devices.size());
  std::vector<double> overlapped;
  for (std::size_t s = 0; s < n_steps; ++s) {
    const Step& step = steps.summary.steps[s];
    if (step.activities == 0) continue;
    TimeNs busiest = 0;
    for (std::size_t row = 0; row < out.devices.size(); ++row) {
      TimeNs own = union_length(per_step[row][s]);
      busiest = std::max(busiest, own);
      busy[row].push_back(static_cast<double>(own) / 1e6);
      waiting[row].push_back(static_cast<double>(step.gpu_busy - own) / 1e6);
    }
    overlapped.push_back(static_cast<double>(step.time - step.gpu_busy + busiest) / 1e6);
  }
  const double step_ms = steps.summary.median_ms;
  for (std::size_t row = 0; row < out.devices.size(); ++row) {
    DeviceRow& d = out.devices[row];
    d.step_busy_median_ms = percentile(busy[row], 50);
    d.idle_share = share_of(step_ms - d.step_busy_median_ms, step_ms);
    d.waiting_share = share_of(percentile(waiting[row], 50), step_ms);
  }
  out.overlapped_step_ms = percentile(overlapped, 50);
}

}  // namespace cuprobe
