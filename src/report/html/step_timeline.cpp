#include "report/html/step_timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "common/units.h"

namespace cuprobe {

double round4(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return std::strtod(buf, nullptr);
}

namespace {

// How far before a step's span to look for activities and ranges that reach into it.
constexpr TimeNs kLookBackNs = 10'000'000'000LL;

struct Event {
  int lane;
  TimeNs start, end;
  int category;
  std::size_t name;
};

// The `max` longest events, back in time order; returns how many were dropped.
std::size_t keep_longest(std::vector<Event>& events, std::size_t max) {
  if (events.size() <= max) return 0;
  std::size_t dropped = events.size() - max;
  std::nth_element(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(max), events.end(),
                   [](const Event& a, const Event& b) { return a.end - a.start > b.end - b.start; });
  events.resize(max);
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.start < b.start; });
  return dropped;
}

}  // namespace

std::pair<TimeNs, TimeNs> step_span(const Step& step) {
  if (step.activities == 0 || step.time <= 0) return {step.cpu_start, step.cpu_end};
  return {step.gpu_start, step.gpu_start + step.time};
}

nlohmann::ordered_json step_timeline(const Profile& p, const RankAnalysis& rank, std::size_t step,
                                     const std::string& label) {
  const Step& s = rank.steps.steps.at(step);
  auto [lo, hi] = step_span(s);
  std::unordered_map<std::string_view, int> category_of;
  for (const auto& k : rank.kernels) category_of.emplace(k.name, static_cast<int>(k.category));
  std::vector<std::string> names;
  std::unordered_map<StringId, std::size_t> name_index;
  auto name_of = [&](StringId id) {
    auto [it, fresh] = name_index.try_emplace(id, names.size());
    if (fresh) names.emplace_back(p.name_of(id));
    return it->second;
  };

  std::vector<Event> gpu, cpu;
  // Profile::gpu and ::cpu are sorted by start: skip to the window, stop after it.
  auto first_gpu = std::lower_bound(p.gpu.begin(), p.gpu.end(), lo - kLookBackNs,
                                    [](const GpuActivity& a, TimeNs t) { return a.start < t; });
  for (auto it = first_gpu; it != p.gpu.end() && it->start <= hi; ++it) {
    if (it->end < lo) continue;
    auto c = category_of.find(p.name_of(it->name));
    gpu.push_back({static_cast<int>(it->stream), it->start, it->end,
                   c == category_of.end() ? static_cast<int>(Category::kOther) : c->second, name_of(it->name)});
  }
  // CPU ranges that overlap the span, those begun before it (the launches of its first kernels, an enclosing
  // annotation) included: nesting depth counts them all, the page cuts them at the span's edge.
  std::vector<TimeNs> open_ends;  // the nesting stack of CPU ranges
  auto first_cpu = std::lower_bound(p.cpu.begin(), p.cpu.end(), lo - kLookBackNs,
                                    [](const CpuRange& r, TimeNs t) { return r.start < t; });
  for (auto it = first_cpu; it != p.cpu.end() && it->start <= hi; ++it) {
    if (it->kind != CpuRangeKind::kOperator && it->kind != CpuRangeKind::kAnnotation) continue;
    while (!open_ends.empty() && open_ends.back() <= it->start) open_ends.pop_back();
    int depth = static_cast<int>(open_ends.size());
    open_ends.push_back(it->end);
    if (it->end < lo) continue;
    cpu.push_back({depth, it->start, it->end, 0, name_of(it->name)});
  }
  std::size_t left_out = keep_longest(gpu, kTimelineMaxGpuEvents) + keep_longest(cpu, kTimelineMaxCpuEvents);

  using json = nlohmann::ordered_json;
  auto rel = [origin = lo](TimeNs t) { return round4(static_cast<double>(t - origin) / 1e6); };
  json j;
  j["label"] = label;
  j["step"] = step;
  j["start_ms"] = 0.0;
  j["end_ms"] = rel(hi);
  json g = json::array(), c = json::array();
  for (const auto& e : gpu) g.push_back({e.lane, rel(e.start), rel(e.end) - rel(e.start), e.category, e.name});
  for (const auto& e : cpu) c.push_back({e.lane, rel(e.start), rel(e.end) - rel(e.start), e.name});
  j["gpu"] = std::move(g);
  j["cpu"] = std::move(c);
  j["names"] = names;
  j["left_out"] = left_out;
  return j;
}

nlohmann::ordered_json typical_and_slowest(const Profile& p, const RankAnalysis& rank) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const StepSummary& summary = rank.steps;
  if (!summary.typical_step || !summary.slowest_step) return list;
  auto label = [&](const char* what, std::size_t k) {
    return std::string(what) + " step " + std::to_string(k) + " (" +
           format_duration_ms(static_cast<double>(summary.steps[k].time) / 1e6) + ")";
  };
  std::size_t typical = *summary.typical_step, slowest = *summary.slowest_step;
  list.push_back(step_timeline(p, rank, typical, label("typical", typical)));
  if (slowest != typical) list.push_back(step_timeline(p, rank, slowest, label("slowest", slowest)));
  return list;
}

}  // namespace cuprobe
