#include "analysis/step_detection_graphs.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "analysis/launch_context.h"

namespace cuprobe {
namespace {

constexpr std::size_t kMinReplays = 3;
constexpr std::size_t kMaxReplaysPerStep = 16;
constexpr double kReplayPatternMatch = 0.9;
// Replays must carry this share of the GPU time from the first replay on; a few
// small graphs inside eager steps leave the steps to periodicity.
constexpr double kMinReplayTimeShare = 0.2;

struct Replay {
  TimeNs start = 0;
  TimeNs end = 0;
  std::int64_t key = 0;  // the graph id; else its first activity's name, offset past any id
  std::int64_t correlation = -1;
  std::size_t first = 0;  // index into profile.gpu
};

struct Replays {
  std::vector<Replay> list;      // by start
  std::vector<int> of_activity;  // per profile.gpu index; -1: not in a replay
  bool whole = false;            // whole-graph launch records
};

Replays find_replays(const Profile& p) {
  std::unordered_set<std::int64_t> graph_launches;  // correlation ids of graph launch calls
  for (const auto& c : p.cpu) {
    if (c.kind == CpuRangeKind::kRuntime && c.correlation >= 0 && is_graph_launch_call(p.name_of(c.name)))
      graph_launches.insert(c.correlation);
  }
  constexpr std::int64_t kNameKey = std::int64_t{1} << 40;
  Replays r;
  r.of_activity.assign(p.gpu.size(), -1);
  std::unordered_map<std::int64_t, int> by_correlation;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    const GpuActivity& a = p.gpu[i];
    std::int64_t key = a.graph_id >= 0 ? a.graph_id : kNameKey + a.name;
    if (a.kind == GpuActivityKind::kGraph) {
      r.whole = true;
      r.of_activity[i] = static_cast<int>(r.list.size());
      r.list.push_back({a.start, a.end, key, a.correlation, i});
      continue;
    }
    bool node = a.graph_id >= 0 || graph_launches.count(a.correlation) > 0;
    if (!node || a.correlation < 0) continue;
    auto [it, added] = by_correlation.try_emplace(a.correlation, static_cast<int>(r.list.size()));
    if (added) {
      r.list.push_back({a.start, a.end, key, a.correlation, i});
    } else {
      Replay& rep = r.list[static_cast<std::size_t>(it->second)];
      rep.end = std::max(rep.end, a.end);
    }
    r.of_activity[i] = it->second;
  }
  return r;  // created in order of first start, and profile.gpu is sorted by start
}

// The fewest replays after which the graph sequence repeats (1 when every step replays one graph).
std::size_t replays_per_step(const std::vector<Replay>& list) {
  const std::size_t n = list.size();
  for (std::size_t q = 1; q <= kMaxReplaysPerStep && 2 * q <= n; ++q) {
    std::size_t same = 0;
    for (std::size_t i = 0; i + q < n; ++i) same += list[i].key == list[i + q].key;
    if (static_cast<double>(same) >= kReplayPatternMatch * static_cast<double>(n - q)) return q;
  }
  return 1;
}

// Which replay of each group begins a step: the position with the most GPU idle before it.
std::size_t step_phase(const Profile& p, const std::vector<Replay>& list, std::size_t q) {
  if (q == 1) return 0;
  std::vector<TimeNs> ended_before(p.gpu.size() + 1, INT64_MIN);  // latest end among activities [0, i)
  for (std::size_t i = 0; i < p.gpu.size(); ++i) ended_before[i + 1] = std::max(ended_before[i], p.gpu[i].end);
  std::vector<double> idle(q, 0.0);
  for (std::size_t j = 0; j < list.size(); ++j) {
    TimeNs before = ended_before[list[j].first];
    if (before != INT64_MIN) idle[j % q] += static_cast<double>(std::max<TimeNs>(0, list[j].start - before));
  }
  return static_cast<std::size_t>(std::max_element(idle.begin(), idle.end()) - idle.begin());
}

}  // namespace

bool assign_by_graph_replays(const Profile& profile, StepAssignment& out) {
  Replays replays = find_replays(profile);
  const auto& list = replays.list;
  if (list.size() < kMinReplays) return false;
  double in_replays = 0, after_first = 0;
  for (std::size_t i = list.front().first; i < profile.gpu.size(); ++i) {
    double d = static_cast<double>(profile.gpu[i].duration());
    after_first += d;
    if (replays.of_activity[i] >= 0) in_replays += d;
  }
  if (in_replays < kMinReplayTimeShare * after_first) return false;
  const std::size_t q = replays_per_step(list);
  const std::size_t phase = step_phase(profile, list, q);
  const std::size_t steps = (list.size() - phase) / q;  // complete groups only
  if (steps < 2) return false;

  std::unordered_map<std::int64_t, const CpuRange*> launch_of;
  for (const auto& c : profile.cpu) {
    if (c.kind == CpuRangeKind::kRuntime && c.correlation >= 0) launch_of.emplace(c.correlation, &c);
  }
  std::vector<TimeNs> begin(steps);
  std::vector<int> step_of_replay(list.size(), -1);
  bool all_launched = true;
  for (std::size_t s = 0; s < steps; ++s) {
    const Replay& first = list[phase + s * q];
    begin[s] = first.start;
    for (std::size_t j = phase + s * q; j < phase + (s + 1) * q; ++j) step_of_replay[j] = static_cast<int>(s);
    Step step;
    step.kind = "decode";  // graph replays are how engines run decode
    auto it = launch_of.find(first.correlation);
    if (it == launch_of.end()) all_launched = false;
    step.cpu_start = it != launch_of.end() ? it->second->start : first.start;
    step.cpu_end = it != launch_of.end() ? it->second->end : first.end;
    out.summary.steps.push_back(step);
  }
  for (std::size_t s = 0; s + 1 < steps; ++s) out.summary.steps[s].cpu_end = out.summary.steps[s + 1].cpu_start;

  // The last step ends one typical step length after it began (or with its own replays).
  std::vector<TimeNs> periods;
  for (std::size_t s = 0; s + 1 < steps; ++s) periods.push_back(begin[s + 1] - begin[s]);
  std::nth_element(periods.begin(), periods.begin() + static_cast<std::ptrdiff_t>(periods.size() / 2), periods.end());
  const TimeNs last_end = std::max(begin.back() + periods[periods.size() / 2], list[phase + steps * q - 1].end);

  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (int r = replays.of_activity[i]; r >= 0) {
      out.activity_step[i] = step_of_replay[static_cast<std::size_t>(r)];
      continue;
    }
    TimeNs t = profile.gpu[i].start;
    if (t < begin.front() || t >= last_end) continue;
    auto next = std::upper_bound(begin.begin(), begin.end(), t);
    out.activity_step[i] = static_cast<int>(next - begin.begin()) - 1;
  }
  for (std::size_t i = 0; i < profile.gpu.size() && profile.gpu[i].start < begin.front(); ++i) {
    if (out.activity_step[i] < 0) ++out.summary.before_first_step;
  }

  out.summary.source = replays.whole ? "graph launch" : "graph replay";
  out.summary.cpu_from = all_launched ? "launch calls" : "";
  out.summary.replays_per_step = static_cast<std::int64_t>(q);
  out.summary.marker = q == 1 ? "one CUDA graph launch per step" : std::to_string(q) + " CUDA graph launches per step";
  return true;
}

}  // namespace cuprobe
