#include "report/chrome_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "common/utf8.h"
#include "model/kineto_category.h"

namespace cuprobe {
namespace {

// GPU tracks get pids above any real process id so the two never mix.
constexpr std::int64_t kGpuPidBase = 1'000'000'000;

void put_string(std::ostream& out, std::string_view raw) {
  // Importers repair names; anything else (metadata) is repaired here, so the output is always valid JSON.
  std::string repaired;
  std::string_view s = raw;
  if (!is_valid_utf8(raw)) s = repaired = repair_utf8(raw);
  out.put('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out << "\\\"";
        break;
      case '\\':
        out << "\\\\";
        break;
      case '\n':
        out << "\\n";
        break;
      case '\r':
        out << "\\r";
        break;
      case '\t':
        out << "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out << buf;
        } else {
          out.put(static_cast<char>(c));
        }
    }
  }
  out.put('"');
}

std::string micros(TimeNs t, TimeNs base) {
  // t - base, exact even where it does not fit in TimeNs.
  bool negative = t < base;
  auto u = [](TimeNs x) { return static_cast<unsigned long long>(x); };
  unsigned long long mag = negative ? u(base) - u(t) : u(t) - u(base);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%llu.%03llu", negative ? "-" : "", mag / 1000, mag % 1000);
  return buf;
}

// Where an event goes: a pid and a tid (Chrome's tracks), and the prefix of a counter's name.
struct Track {
  std::int64_t pid = 0, tid = 0;
};

// Separates the events of the traceEvents array.
struct EventList {
  std::ostream& out;
  bool first = true;
  void next() {
    if (!first) out << ",\n";
    first = false;
  }
};

TimeNs earliest(const Profile& p, TimeNs base) {
  for (const auto& a : p.gpu) base = std::min(base, a.start);
  for (const auto& r : p.cpu) base = std::min(base, r.start);
  for (const auto& c : p.counters) base = std::min(base, c.start);
  return base;
}

// The GPU activities, CPU ranges and counter samples of a profile, each on the track its function gives;
// counter names get `counter_prefix(device)` in front.
template <typename GpuTrack, typename CpuTrack, typename CounterPid, typename CounterPrefix>
void write_events(const Profile& p, TimeNs base, EventList& list, GpuTrack gpu_track, CpuTrack cpu_track,
                  CounterPid counter_pid, CounterPrefix counter_prefix) {
  std::ostream& out = list.out;
  for (const auto& a : p.gpu) {
    list.next();
    const char* cat = kineto_category::of(a.kind);
    Track t = gpu_track(a);
    out << "{\"ph\":\"X\",\"cat\":\"" << cat << "\",\"name\":";
    put_string(out, p.name_of(a.name));
    out << ",\"pid\":" << t.pid << ",\"tid\":" << t.tid << ",\"ts\":" << micros(a.start, base)
        << ",\"dur\":" << micros(a.end, a.start) << ",\"args\":{\"device\":" << a.device << ",\"stream\":" << a.stream
        << ",\"correlation\":" << a.correlation;
    if (a.graph_id >= 0) out << ",\"graph id\":" << a.graph_id;
    if (a.kind == GpuActivityKind::kKernel) {
      out << ",\"grid\":[" << a.grid[0] << ',' << a.grid[1] << ',' << a.grid[2] << "],\"block\":[" << a.block[0] << ','
          << a.block[1] << ',' << a.block[2] << "],\"registers per thread\":" << a.registers_per_thread
          << ",\"shared memory\":" << a.shared_memory_bytes;
    } else if (a.kind != GpuActivityKind::kGraph) {
      out << ",\"bytes\":" << a.bytes;
      if (a.kind == GpuActivityKind::kMemcpy) out << ",\"kind\":\"" << name_of(a.memcpy_kind) << '"';
    }
    out << "}}";
  }
  for (const auto& r : p.cpu) {
    list.next();
    const char* cat = kineto_category::of(r.kind);
    Track t = cpu_track(r);
    out << "{\"ph\":\"X\",\"cat\":\"" << cat << "\",\"name\":";
    put_string(out, p.name_of(r.name));
    out << ",\"pid\":" << t.pid << ",\"tid\":" << t.tid << ",\"ts\":" << micros(r.start, base)
        << ",\"dur\":" << micros(r.end, r.start);
    if (r.correlation >= 0) out << ",\"args\":{\"correlation\":" << r.correlation << '}';
    out << '}';
  }
  for (const auto& c : p.counters) {
    if (!std::isfinite(c.value)) continue;
    list.next();
    out << "{\"ph\":\"C\",\"name\":";
    put_string(out, counter_prefix(c.device) + std::string(p.name_of(c.metric)));
    char value[40];
    std::snprintf(value, sizeof value, "%.6g", c.value);
    out << ",\"pid\":" << counter_pid(c.device) << ",\"ts\":" << micros(c.start, base)
        << ",\"args\":{\"value\":" << value << "}}";
  }
}

// "GPU 1 (NVIDIA H200)".
std::string gpu_name(const Profile& p, std::int32_t d) {
  std::string name = "GPU " + std::to_string(d);
  for (const auto& info : p.devices) {
    if (info.id == d && !info.name.empty()) return name + " (" + info.name + ")";
  }
  return name;
}

void metadata_event(EventList& list, const char* what, std::int64_t pid, std::optional<std::int64_t> tid,
                    const std::string& name) {
  list.next();
  list.out << "{\"ph\":\"M\",\"name\":\"" << what << "\",\"pid\":" << pid;
  if (tid) list.out << ",\"tid\":" << *tid;
  list.out << ",\"args\":{\"name\":";
  put_string(list.out, name);
  list.out << "}}";
}

void sort_index_event(EventList& list, const char* what, std::int64_t pid, std::optional<std::int64_t> tid,
                      std::int64_t index) {
  list.next();
  list.out << "{\"ph\":\"M\",\"name\":\"" << what << "\",\"pid\":" << pid;
  if (tid) list.out << ",\"tid\":" << *tid;
  list.out << ",\"args\":{\"sort_index\":" << index << "}}";
}

}  // namespace

void write_chrome_trace(const Profile& p, std::ostream& out) {
  TimeNs base = earliest(p, std::numeric_limits<TimeNs>::max());
  if (base == std::numeric_limits<TimeNs>::max()) base = 0;

  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"base_time_ns\":" << base << ",\"source\":";
  put_string(out, p.source);
  out << ",\"complete\":" << (p.complete ? "true" : "false") << "},\"traceEvents\":[\n";
  EventList list{out};
  std::set<std::int32_t> devices;
  for (const auto& a : p.gpu) devices.insert(a.device);
  for (const auto& c : p.counters) devices.insert(c.device);
  write_events(
      p, base, list,
      [](const GpuActivity& a) {
        return Track{kGpuPidBase + a.device, a.stream};
      },
      [](const CpuRange& r) {
        return Track{r.pid, r.tid};
      },
      [](std::int32_t device) { return kGpuPidBase + device; }, [](std::int32_t) { return std::string(); });
  for (std::int32_t d : devices) metadata_event(list, "process_name", kGpuPidBase + d, std::nullopt, gpu_name(p, d));
  out << "\n]}\n";
}

void write_merged_chrome_trace(const std::vector<Profile>& ranks, std::ostream& out,
                               const std::vector<TimeNs>& offset_ns) {
  auto offset = [&](std::size_t i) { return i < offset_ns.size() ? offset_ns[i] : TimeNs{0}; };
  TimeNs base = std::numeric_limits<TimeNs>::max();
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    TimeNs first = earliest(ranks[i], std::numeric_limits<TimeNs>::max());
    if (first != std::numeric_limits<TimeNs>::max()) base = std::min(base, first - offset(i));
  }
  if (base == std::numeric_limits<TimeNs>::max()) base = 0;
  bool shifted = false;
  for (std::size_t i = 0; i < ranks.size(); ++i) shifted = shifted || offset(i) != 0;

  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"base_time_ns\":" << base << ",\"clock\":\""
      << (shifted ? "each rank's timestamps minus its clock_offset_ns (aligned on collectives), one common origin"
                  : "each rank's own timestamps, one common origin: no rank is shifted")
      << "\",\"ranks\":[";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const Profile& p = ranks[i];
    out << (i ? "," : "") << "{\"pid\":" << i + 1 << ",\"rank\":";
    if (p.rank)
      out << *p.rank;
    else
      out << "null";
    out << ",\"file\":";
    put_string(out, p.file);
    out << ",\"source\":";
    put_string(out, p.source);
    out << ",\"complete\":" << (p.complete ? "true" : "false") << ",\"clock_offset_ns\":" << offset(i) << '}';
  }
  out << "]},\"traceEvents\":[\n";
  EventList list{out};
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const Profile& p = ranks[i];
    const auto pid = static_cast<std::int64_t>(i + 1);
    // Tracks numbered within the rank's process: its GPU streams first (by device, stream), then its CPU threads.
    std::map<std::pair<std::int32_t, std::int64_t>, std::int64_t> streams;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> threads;
    for (const auto& a : p.gpu) streams.try_emplace({a.device, a.stream}, 0);
    for (const auto& r : p.cpu) threads.try_emplace({r.pid, r.tid}, 0);
    std::int64_t next = 1;
    for (auto& [key, tid] : streams) tid = next++;
    for (auto& [key, tid] : threads) tid = next++;
    write_events(
        p, base + offset(i), list,
        [&](const GpuActivity& a) {
          return Track{pid, streams.at({a.device, a.stream})};
        },
        [&](const CpuRange& r) {
          return Track{pid, threads.at({r.pid, r.tid})};
        },
        [&](std::int32_t) { return pid; }, [&](std::int32_t device) { return gpu_name(p, device) + " "; });
    std::string label = p.rank ? "rank " + std::to_string(*p.rank) : "rank ?";
    metadata_event(list, "process_name", pid, std::nullopt, label + ": " + p.file);
    sort_index_event(list, "process_sort_index", pid, std::nullopt, pid);
    for (const auto& [key, tid] : streams) {
      metadata_event(list, "thread_name", pid, tid, gpu_name(p, key.first) + " stream " + std::to_string(key.second));
      sort_index_event(list, "thread_sort_index", pid, tid, tid);
    }
    for (const auto& [key, tid] : threads) {
      metadata_event(list, "thread_name", pid, tid,
                     "CPU pid " + std::to_string(key.first) + " tid " + std::to_string(key.second));
      sort_index_event(list, "thread_sort_index", pid, tid, tid);
    }
  }
  out << "\n]}\n";
}

}  // namespace cuprobe
