#include "analysis/queue_length.h"

#include <algorithm>
#include <map>

#include "analysis/track_keys.h"

namespace cuprobe {

namespace {

// The queue of one stream from its launch times and its activities' start times (sorted).
QueueRow queue_row(StreamKey key, std::vector<TimeNs>& launched, const std::vector<TimeNs>& started) {
  QueueRow row{key.device, key.stream, static_cast<std::int64_t>(started.size())};
  // Calls on one thread and activities on one stream come mostly in order: a sort only where they do not.
  if (!std::is_sorted(launched.begin(), launched.end())) std::sort(launched.begin(), launched.end());
  std::int64_t queued = 0;
  double area = 0, summed = 0;  // time-weighted area; the value after each change, summed (HTA's describe())
  std::size_t l = 0, s = 0;
  TimeNs first = std::min(launched.front(), started.front());
  TimeNs last = first;
  while (l < launched.size() || s < started.size()) {
    // At equal times the start first: a launch that the GPU took at once never waited behind it.
    bool start = l == launched.size() || (s < started.size() && started[s] <= launched[l]);
    TimeNs t = start ? started[s] : launched[l];
    area += static_cast<double>(queued) * static_cast<double>(t - last);
    last = t;
    queued += start ? -1 : 1;
    summed += static_cast<double>(queued);
    start ? ++s : ++l;
    row.max = std::max(row.max, queued);
  }
  row.mean_time_weighted = last > first ? area / static_cast<double>(last - first) : 0;
  // HTA's TraceCounters: pd.concat of +1 rows (launch calls) and -1 rows (GPU activities), sorted by ts, cumsum per
  // stream, then describe(): the mean over every row, launch and start alike.
  row.mean_per_event = summed / static_cast<double>(launched.size() + started.size());
  return row;
}

}  // namespace

std::vector<QueueRow> queue_length(const Profile& profile, const LaunchLinks& links) {
  struct Events {
    std::vector<TimeNs> launched, started;
  };
  std::map<StreamKey, Events> streams;
  StreamKey last_key{INT32_MIN, INT64_MIN};
  Events* events = nullptr;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    std::int32_t call = links.launch[i];
    if (call < 0) continue;
    const GpuActivity& a = profile.gpu[i];
    StreamKey key{a.device, a.stream};
    if (!events || key != last_key) {
      events = &streams[key];
      last_key = key;
    }
    events->launched.push_back(profile.cpu[static_cast<std::size_t>(call)].start);
    events->started.push_back(a.start);  // Profile::gpu is sorted by start
  }
  std::vector<QueueRow> rows;
  for (auto& [key, e] : streams) rows.push_back(queue_row(key, e.launched, e.started));
  return rows;
}

}  // namespace cuprobe
