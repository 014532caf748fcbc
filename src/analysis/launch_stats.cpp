#include "analysis/launch_stats.h"

#include <algorithm>

#include "analysis/distribution.h"
#include "analysis/launch_context.h"

namespace cuprobe {
namespace {

// The figures of one group of launches: their call durations and delays, in ns.
LaunchRow describe_launches(std::string name, std::span<double> cpu_ns, std::span<double> delay_ns,
                            std::int64_t short_kernels) {
  LaunchRow row;
  row.name = std::move(name);
  row.launches = static_cast<std::int64_t>(cpu_ns.size());
  row.short_kernels = short_kernels;
  for (double c : cpu_ns) row.cpu_outliers += c > kLaunchCpuCutoffUs * 1e3;
  for (double d : delay_ns) row.delay_outliers += d > kLaunchDelayCutoffUs * 1e3;
  Distribution cpu = describe(cpu_ns);
  Distribution delay = describe(delay_ns);
  row.cpu_median_us = cpu.median / 1e3;
  row.cpu_p90_us = cpu.p90 / 1e3;
  row.cpu_max_us = cpu.max / 1e3;
  row.delay_median_us = delay.median / 1e3;
  row.delay_p90_us = delay.p90 / 1e3;
  row.delay_max_us = delay.max / 1e3;
  row.delay_total_ms = delay.sum / 1e6;
  return row;
}

}  // namespace

LaunchStats launch_stats(const Profile& profile, const LaunchLinks& links) {
  LaunchStats out;
  out.cpu_cutoff_us = kLaunchCpuCutoffUs;
  out.delay_cutoff_us = kLaunchDelayCutoffUs;
  out.all.name = "(all)";
  // Names in order of first launch; the launches of each grouped by name.
  std::vector<std::int32_t> group_of_id(profile.strings.size(), -1);
  std::vector<StringId> names;
  std::vector<std::int32_t> group_of(profile.gpu.size(), -1);
  std::vector<std::int8_t> graph_call(profile.strings.size(), -1);  // per call name: is it a graph launch (-1 unknown)
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    std::int32_t call = links.launch[i];
    if (call < 0) continue;
    StringId call_name = profile.cpu[static_cast<std::size_t>(call)].name;
    std::int8_t& graph = graph_call[call_name];
    if (graph < 0) graph = is_graph_launch_call(profile.name_of(call_name)) ? 1 : 0;
    if (graph) continue;
    std::int32_t& g = group_of_id[profile.gpu[i].name];
    if (g < 0) {
      g = static_cast<std::int32_t>(names.size());
      names.push_back(profile.gpu[i].name);
    }
    group_of[i] = g;
  }
  GroupedValues cpu(names.size()), delay(names.size());
  for (std::int32_t g : group_of) {
    if (g < 0) continue;
    cpu.count(static_cast<std::size_t>(g));
    delay.count(static_cast<std::size_t>(g));
  }
  cpu.place_all();
  delay.place_all();
  std::vector<double> all_cpu, all_delay;
  std::vector<std::int64_t> short_kernels(names.size(), 0);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (group_of[i] < 0) continue;
    auto g = static_cast<std::size_t>(group_of[i]);
    const CpuRange& call = profile.cpu[static_cast<std::size_t>(links.launch[i])];
    const GpuActivity& a = profile.gpu[i];
    auto c = static_cast<double>(call.end - call.start);
    auto d = static_cast<double>(a.start - call.end);
    cpu.put(g, c);
    delay.put(g, d);
    all_cpu.push_back(c);
    all_delay.push_back(d);
    short_kernels[g] += static_cast<double>(a.duration()) < c;
  }
  std::int64_t all_short = 0;
  for (std::size_t g = 0; g < names.size(); ++g) {
    all_short += short_kernels[g];
    out.kernels.push_back(
        describe_launches(std::string(profile.name_of(names[g])), cpu.group(g), delay.group(g), short_kernels[g]));
  }
  out.all = describe_launches("(all)", all_cpu, all_delay, all_short);
  std::sort(out.kernels.begin(), out.kernels.end(), [](const LaunchRow& a, const LaunchRow& b) {
    return a.delay_total_ms != b.delay_total_ms ? a.delay_total_ms > b.delay_total_ms : a.name < b.name;
  });
  return out;
}

}  // namespace cuprobe
