#include "report/chrome_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <string>

#include "common/utf8.h"

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

}  // namespace

void write_chrome_trace(const Profile& p, std::ostream& out) {
  TimeNs base = std::numeric_limits<TimeNs>::max();
  for (const auto& a : p.gpu) base = std::min(base, a.start);
  for (const auto& r : p.cpu) base = std::min(base, r.start);
  for (const auto& c : p.counters) base = std::min(base, c.start);
  if (base == std::numeric_limits<TimeNs>::max()) base = 0;

  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"base_time_ns\":" << base << ",\"source\":";
  put_string(out, p.source);
  out << ",\"complete\":" << (p.complete ? "true" : "false") << "},\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&] {
    if (!first) out << ",\n";
    first = false;
  };
  std::set<std::int32_t> devices;
  for (const auto& a : p.gpu) {
    devices.insert(a.device);
    sep();
    const char* cat = a.kind == GpuActivityKind::kKernel   ? "kernel"
                      : a.kind == GpuActivityKind::kMemcpy ? "gpu_memcpy"
                      : a.kind == GpuActivityKind::kGraph  ? "cuda_graph"
                                                           : "gpu_memset";
    out << "{\"ph\":\"X\",\"cat\":\"" << cat << "\",\"name\":";
    put_string(out, p.name_of(a.name));
    out << ",\"pid\":" << kGpuPidBase + a.device << ",\"tid\":" << a.stream << ",\"ts\":" << micros(a.start, base)
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
    sep();
    const char* cat = r.kind == CpuRangeKind::kAnnotation ? "user_annotation"
                      : r.kind == CpuRangeKind::kRuntime  ? "cuda_runtime"
                      : r.kind == CpuRangeKind::kOperator ? "cpu_op"
                                                          : "cpu";
    out << "{\"ph\":\"X\",\"cat\":\"" << cat << "\",\"name\":";
    put_string(out, p.name_of(r.name));
    out << ",\"pid\":" << r.pid << ",\"tid\":" << r.tid << ",\"ts\":" << micros(r.start, base)
        << ",\"dur\":" << micros(r.end, r.start);
    if (r.correlation >= 0) out << ",\"args\":{\"correlation\":" << r.correlation << '}';
    out << '}';
  }
  for (const auto& c : p.counters) {
    devices.insert(c.device);
    if (!std::isfinite(c.value)) continue;
    sep();
    out << "{\"ph\":\"C\",\"name\":";
    put_string(out, p.name_of(c.metric));
    char value[40];
    std::snprintf(value, sizeof value, "%.6g", c.value);
    out << ",\"pid\":" << kGpuPidBase + c.device << ",\"ts\":" << micros(c.start, base)
        << ",\"args\":{\"value\":" << value << "}}";
  }
  for (std::int32_t d : devices) {
    sep();
    std::string name = "GPU " + std::to_string(d);
    for (const auto& info : p.devices) {
      if (info.id == d && !info.name.empty()) name += " (" + info.name + ")";
    }
    out << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << kGpuPidBase + d << ",\"args\":{\"name\":";
    put_string(out, name);
    out << "}}";
  }
  out << "\n]}\n";
}

}  // namespace cuprobe
