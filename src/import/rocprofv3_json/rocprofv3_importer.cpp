#include "import/rocprofv3_json/rocprofv3_importer.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/utf8.h"
#include "import/kineto_json/json_cursor.h"
#include "import/kineto_json/timestamp.h"
#include "import/read_ahead.h"
#include "model/time_range.h"

namespace cuprobe {
namespace {

constexpr std::string_view kTopKey = "rocprofiler-sdk-tool";

// One buffer record of any kind: the fields of kernel_dispatch, memory_copy, hip_api and marker_api together.
struct Record {
  std::uint64_t offset = 0;
  std::int64_t kind = -1;
  std::int64_t operation = -1;
  std::int64_t thread = -1;
  std::optional<std::int64_t> start, end;
  std::int64_t correlation = 0;  // internal id; 0: none
  std::uint64_t agent = 0, src_agent = 0, dst_agent = 0;
  std::optional<std::uint64_t> queue, stream;
  std::int64_t kernel_id = -1;
  std::int64_t grid[3] = {0, 0, 0};       // work-items (HSA's grid size)
  std::int64_t workgroup[3] = {0, 0, 0};  // work-items per workgroup
  std::int64_t group_segment = -1;        // LDS bytes
  std::int64_t bytes = -1;
};

enum class RecordKind { kDispatch, kCopy, kHipApi, kMarker };

struct KindNames {
  std::string kind;
  std::vector<std::string> operations;
};

struct Agent {
  std::uint64_t handle = 0;
  std::int64_t type = 0;  // 1 CPU, 2 GPU (rocprofiler_agent_type_t)
  std::string name, product_name;
  std::int32_t cu_count = 0;
};

// What one element of "rocprofiler-sdk-tool" (one process) holds, resolved once it is all read.
struct Process {
  std::int64_t pid = -1;
  std::vector<Agent> agents;
  std::vector<KindNames> kinds;                           // strings.buffer_records, indexed by a record's kind
  std::unordered_map<std::int64_t, std::string> markers;  // strings.marker_api: correlation id -> message
  std::unordered_map<std::int64_t, std::string> symbols;  // kernel_symbols: kernel id -> name
  std::vector<std::pair<RecordKind, Record>> records;
};

class Rocprofv3Importer {
 public:
  Rocprofv3Importer(ByteSource& source, const std::string& name) : cursor_(source, name) {
    profile_.file = name;
    profile_.source = "rocprofv3";
  }

  Profile run() {
    if (cursor_.peek() != '{') cursor_.fail("not rocprofv3 JSON: the document is not an object");
    cursor_.expect('{');
    std::string_view key;
    bool first = true, saw = false;
    while (cursor_.next_key(key, first)) {
      if (key == kTopKey) {
        saw = true;
        read_processes();
      } else {
        cursor_.skip_value();
      }
    }
    if (!cursor_.at_end()) cursor_.fail("unexpected data after the end of the JSON document");
    if (!saw) cursor_.fail_at(0, "not rocprofv3 JSON: no \"rocprofiler-sdk-tool\" array");
    profile_.sort_by_time();
    return std::move(profile_);
  }

 private:
  void expect_container(char open, const char* what) {
    if (cursor_.peek() != open)
      cursor_.fail(std::string("\"") + what + "\" must be " + (open == '[' ? "an array" : "an object"));
    cursor_.expect(open);
  }

  // Calls fn(key) for each key of an object; fn reads or skips the value.
  template <typename Fn>
  void for_each_key(const char* what, Fn fn) {
    expect_container('{', what);
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) fn(std::string(key));
  }

  // Calls fn() for each element of an array, the cursor on it.
  template <typename Fn>
  void for_each_element(const char* what, Fn fn) {
    expect_container('[', what);
    bool first = true;
    while (cursor_.next_element(first)) fn();
  }

  void mistyped(const char* what) {
    std::uint64_t at = cursor_.offset();
    cursor_.skip_value();
    profile_.stats.add(ImportStat::kFieldMistyped, what, at);
  }

  std::optional<std::int64_t> read_int(const char* what) {
    char c = cursor_.peek();
    if (c != '-' && (c < '0' || c > '9')) {
      mistyped(what);
      return std::nullopt;
    }
    std::uint64_t at = cursor_.offset();
    std::string_view text = cursor_.number();
    auto v = integer_text(text);
    if (!v) profile_.stats.add(ImportStat::kValueOutOfRange, std::string(what) + " = " + std::string(text), at);
    return v;
  }

  // Handles (agents, queues, streams) are unsigned 64-bit.
  std::uint64_t read_handle(const char* what) {
    std::uint64_t v = 0;
    for_each_key(what, [&](const std::string& key) {
      if (key != "handle") return cursor_.skip_value();
      char c = cursor_.peek();
      if (c < '0' || c > '9') return mistyped(what);
      std::string_view text = cursor_.number();
      if (std::from_chars(text.data(), text.data() + text.size(), v).ec != std::errc())
        profile_.stats.add(ImportStat::kValueOutOfRange, std::string(what) + " = " + std::string(text));
    });
    return v;
  }

  std::string read_string(const char* what) {
    if (cursor_.peek() != '"') {
      mistyped(what);
      return {};
    }
    std::string_view s = cursor_.string();
    if (is_valid_utf8(s)) return std::string(s);
    profile_.stats.add(ImportStat::kInvalidUtf8, what);
    return repair_utf8(s);
  }

  void read_dims(std::int64_t (&dims)[3], const char* what) {
    for_each_key(what, [&](const std::string& key) {
      int axis = key == "x" ? 0 : key == "y" ? 1 : key == "z" ? 2 : -1;
      if (axis < 0) return cursor_.skip_value();
      dims[axis] = read_int(what).value_or(0);
    });
  }

  void read_processes() {
    for_each_element(kTopKey.data(), [&] {
      Process p;
      read_process(p);
      resolve(p);
    });
  }

  void read_process(Process& p) {
    for_each_key("rocprofiler-sdk-tool[]", [&](const std::string& key) {
      if (key == "metadata") {
        for_each_key("metadata", [&](const std::string& k) {
          if (k == "pid")
            p.pid = read_int("metadata.pid").value_or(-1);
          else
            cursor_.skip_value();
        });
      } else if (key == "agents") {
        for_each_element("agents", [&] { p.agents.push_back(read_agent()); });
      } else if (key == "strings") {
        read_strings(p);
      } else if (key == "kernel_symbols") {
        read_kernel_symbols(p);
      } else if (key == "buffer_records") {
        read_buffer_records(p);
      } else {
        cursor_.skip_value();
      }
    });
  }

  Agent read_agent() {
    Agent a;
    for_each_key("agents[]", [&](const std::string& key) {
      if (key == "id")
        a.handle = read_handle("agents.id");
      else if (key == "type")
        a.type = read_int("agents.type").value_or(0);
      else if (key == "name")
        a.name = read_string("agents.name");
      else if (key == "product_name")
        a.product_name = read_string("agents.product_name");
      else if (key == "cu_count")
        a.cu_count = static_cast<std::int32_t>(read_int("agents.cu_count").value_or(0));
      else
        cursor_.skip_value();
    });
    return a;
  }

  void read_strings(Process& p) {
    for_each_key("strings", [&](const std::string& key) {
      if (key == "buffer_records") {
        for_each_element("strings.buffer_records", [&] {
          KindNames names;
          for_each_key("strings.buffer_records[]", [&](const std::string& k) {
            if (k == "kind")
              names.kind = read_string("strings.buffer_records.kind");
            else if (k == "operations")
              for_each_element("strings.buffer_records.operations",
                               [&] { names.operations.push_back(read_string("strings.buffer_records.operations")); });
            else
              cursor_.skip_value();
          });
          p.kinds.push_back(std::move(names));
        });
      } else if (key == "marker_api") {
        for_each_element("strings.marker_api", [&] {
          std::int64_t id = -1;
          std::string message;
          for_each_key("strings.marker_api[]", [&](const std::string& k) {
            if (k == "key")
              id = read_int("strings.marker_api.key").value_or(-1);
            else if (k == "value")
              message = read_string("strings.marker_api.value");
            else
              cursor_.skip_value();
          });
          p.markers.emplace(id, std::move(message));
        });
      } else {
        cursor_.skip_value();
      }
    });
  }

  // An array of symbols, or an object of them keyed by kernel id; the name rocprofv3's own CSV shows first.
  void read_kernel_symbols(Process& p) {
    auto read_symbol = [&](std::int64_t fallback_id) {
      if (cursor_.peek() != '{') return mistyped("kernel_symbols[]");
      std::int64_t id = fallback_id;
      std::string formatted, demangled, truncated, mangled;
      for_each_key("kernel_symbols[]", [&](const std::string& k) {
        if (k == "kernel_id")
          id = read_int("kernel_symbols.kernel_id").value_or(fallback_id);
        else if (k == "formatted_kernel_name")
          formatted = read_string("kernel_symbols.formatted_kernel_name");
        else if (k == "demangled_kernel_name")
          demangled = read_string("kernel_symbols.demangled_kernel_name");
        else if (k == "truncated_kernel_name")
          truncated = read_string("kernel_symbols.truncated_kernel_name");
        else if (k == "kernel_name")
          mangled = read_string("kernel_symbols.kernel_name");
        else
          cursor_.skip_value();
      });
      if (mangled.ends_with(".kd")) mangled.resize(mangled.size() - 3);
      std::string name = !formatted.empty()   ? formatted
                         : !demangled.empty() ? demangled
                         : !truncated.empty() ? truncated
                                              : mangled;
      if (id >= 0 && !name.empty()) p.symbols[id] = std::move(name);
    };
    if (cursor_.peek() == '{') {
      for_each_key("kernel_symbols", [&](const std::string& key) { read_symbol(integer_text(key).value_or(-1)); });
    } else {
      for_each_element("kernel_symbols", [&] { read_symbol(-1); });
    }
  }

  void read_buffer_records(Process& p) {
    for_each_key("buffer_records", [&](const std::string& key) {
      std::optional<RecordKind> kind;
      if (key == "kernel_dispatch" || key == "kernel_dispatches")
        kind = RecordKind::kDispatch;
      else if (key == "memory_copy")
        kind = RecordKind::kCopy;
      else if (key == "hip_api")
        kind = RecordKind::kHipApi;
      else if (key == "marker_api")
        kind = RecordKind::kMarker;
      if (!kind) return cursor_.skip_value();
      for_each_element("buffer_records[]", [&] {
        if (cursor_.peek() != '{') cursor_.fail("a buffer record is not an object");
        p.records.emplace_back(*kind, read_record());
        ++profile_.stats.events;
      });
    });
  }

  Record read_record() {
    Record r;
    r.offset = cursor_.offset();
    for_each_key("buffer record", [&](const std::string& key) {
      if (key == "kind")
        r.kind = read_int("kind").value_or(-1);
      else if (key == "operation")
        r.operation = read_int("operation").value_or(-1);
      else if (key == "thread_id")
        r.thread = read_int("thread_id").value_or(-1);
      else if (key == "start_timestamp")
        r.start = read_int("start_timestamp");
      else if (key == "end_timestamp")
        r.end = read_int("end_timestamp");
      else if (key == "correlation_id")
        for_each_key("correlation_id", [&](const std::string& k) {
          if (k == "internal")
            r.correlation = read_int("correlation_id.internal").value_or(0);
          else
            cursor_.skip_value();
        });
      else if (key == "stream_id")
        r.stream = read_handle("stream_id");
      else if (key == "src_agent_id")
        r.src_agent = read_handle("src_agent_id");
      else if (key == "dst_agent_id")
        r.dst_agent = read_handle("dst_agent_id");
      else if (key == "bytes")
        r.bytes = read_int("bytes").value_or(-1);
      else if (key == "dispatch_info")
        read_dispatch_info(r);
      else
        cursor_.skip_value();
    });
    return r;
  }

  void read_dispatch_info(Record& r) {
    for_each_key("dispatch_info", [&](const std::string& key) {
      if (key == "agent_id")
        r.agent = read_handle("dispatch_info.agent_id");
      else if (key == "queue_id")
        r.queue = read_handle("dispatch_info.queue_id");
      else if (key == "kernel_id")
        r.kernel_id = read_int("dispatch_info.kernel_id").value_or(-1);
      else if (key == "grid_size")
        read_dims(r.grid, "dispatch_info.grid_size");
      else if (key == "workgroup_size")
        read_dims(r.workgroup, "dispatch_info.workgroup_size");
      else if (key == "group_segment_size")
        r.group_segment = read_int("dispatch_info.group_segment_size").value_or(-1);
      else
        cursor_.skip_value();
    });
  }

  // ---- from records to the model ----

  std::string_view kind_name(const Process& p, const Record& r) const {
    return r.kind >= 0 && static_cast<std::size_t>(r.kind) < p.kinds.size()
               ? p.kinds[static_cast<std::size_t>(r.kind)].kind
               : std::string_view();
  }

  std::string_view operation_name(const Process& p, const Record& r) const {
    if (r.kind < 0 || static_cast<std::size_t>(r.kind) >= p.kinds.size()) return {};
    const auto& ops = p.kinds[static_cast<std::size_t>(r.kind)].operations;
    return r.operation >= 0 && static_cast<std::size_t>(r.operation) < ops.size()
               ? std::string_view(ops[static_cast<std::size_t>(r.operation)])
               : std::string_view();
  }

  // A record's interval, or none (counted) when it lacks one or lies out of range.
  std::optional<std::pair<TimeNs, TimeNs>> interval(const Record& r, std::string_view what) {
    if (!r.start || !r.end) {
      profile_.stats.add(ImportStat::kEventMissingField, std::string(what) + " without start/end_timestamp", r.offset);
      return std::nullopt;
    }
    if (!time_in_range(*r.start) || !time_in_range(*r.end)) {
      profile_.stats.add(ImportStat::kTimeOutOfRange, std::string(what), r.offset);
      return std::nullopt;
    }
    TimeNs end = *r.end;
    if (end < *r.start) {
      profile_.stats.add(ImportStat::kReversedInterval, std::string(what), r.offset);
      end = *r.start;
    }
    return std::pair{*r.start, end};
  }

  void resolve(const Process& p) {
    // GPUs numbered in the order the agents list them (rocprofv3 lists them by node id).
    std::unordered_map<std::uint64_t, std::int32_t> gpu_of_agent;
    for (const Agent& a : p.agents) {
      if (a.type != 2) continue;
      auto id = static_cast<std::int32_t>(gpu_of_agent.size());
      gpu_of_agent.emplace(a.handle, id);
      DeviceInfo d;
      d.id = id;
      d.name = !a.product_name.empty() ? a.product_name : a.name;
      d.sm_count = a.cu_count;
      if (std::none_of(profile_.devices.begin(), profile_.devices.end(),
                       [&](const DeviceInfo& known) { return known.id == id; }))
        profile_.devices.push_back(std::move(d));
    }
    auto gpu = [&](std::uint64_t agent) {
      auto it = gpu_of_agent.find(agent);
      return it == gpu_of_agent.end() ? std::int32_t{-1} : it->second;
    };
    if (p.pid >= 0) {
      ProcessInfo info;
      info.pid = p.pid;
      profile_.processes.push_back(info);
    }
    for (const auto& [kind, r] : p.records) {
      switch (kind) {
        case RecordKind::kDispatch:
          add_dispatch(p, r, gpu(r.agent));
          break;
        case RecordKind::kCopy:
          add_copy(p, r, gpu);
          break;
        case RecordKind::kHipApi:
          add_hip_call(p, r);
          break;
        case RecordKind::kMarker:
          add_marker(p, r);
          break;
      }
    }
  }

  GpuActivity activity(const Process& p, const Record& r, std::pair<TimeNs, TimeNs> when) {
    GpuActivity a;
    a.start = when.first;
    a.end = when.second;
    a.pid = static_cast<std::int32_t>(p.pid);
    a.correlation = r.correlation > 0 ? r.correlation : -1;
    a.stream = static_cast<std::int64_t>(r.stream ? *r.stream : r.queue.value_or(0));
    return a;
  }

  void keep(GpuActivity a, const Record& r) {
    std::string name(profile_.name_of(a.name));
    if (a.correlation < 0) profile_.stats.add(ImportStat::kNoCorrelation, name, r.offset);
    if (a.end == a.start) profile_.stats.add(ImportStat::kZeroDurationGpu, name, r.offset);
    profile_.gpu.push_back(a);
  }

  void add_dispatch(const Process& p, const Record& r, std::int32_t device) {
    auto when = interval(r, "kernel_dispatch");
    if (!when) return;
    GpuActivity a = activity(p, r, *when);
    a.kind = GpuActivityKind::kKernel;
    a.device = device;
    auto symbol = p.symbols.find(r.kernel_id);
    if (symbol == p.symbols.end()) {
      std::string unknown = "<unknown kernel " + std::to_string(r.kernel_id) + ">";
      profile_.stats.add(ImportStat::kUnknownNameId, unknown, r.offset);
      a.name = profile_.strings.intern(unknown);
    } else {
      a.name = profile_.strings.intern(symbol->second);
    }
    for (int i = 0; i < 3; ++i) {
      // HSA's grid counts work-items; CUDA's (and the model's) counts blocks.
      // Rounded up without grid + workgroup - 1 (a file's INT64_MAX overflowed it); negatives are 0.
      std::int64_t g = std::max<std::int64_t>(r.grid[i], 0), w = r.workgroup[i];
      std::int64_t blocks = w > 0 ? g / w + (g % w != 0 ? 1 : 0) : g;
      a.grid[i] = static_cast<std::int32_t>(std::min<std::int64_t>(blocks, INT32_MAX));
      a.block[i] = static_cast<std::int32_t>(std::min<std::int64_t>(r.workgroup[i], INT32_MAX));
    }
    if (r.group_segment >= 0)
      a.shared_memory_bytes = static_cast<std::int32_t>(std::min<std::int64_t>(r.group_segment, INT32_MAX));
    keep(a, r);
  }

  template <typename GpuOf>
  void add_copy(const Process& p, const Record& r, GpuOf gpu) {
    auto when = interval(r, "memory_copy");
    if (!when) return;
    GpuActivity a = activity(p, r, *when);
    a.kind = GpuActivityKind::kMemcpy;
    std::string_view op = operation_name(p, r);
    a.memcpy_kind = op.ends_with("HOST_TO_DEVICE")     ? MemcpyKind::kHtoD
                    : op.ends_with("DEVICE_TO_HOST")   ? MemcpyKind::kDtoH
                    : op.ends_with("DEVICE_TO_DEVICE") ? MemcpyKind::kDtoD
                    : op.ends_with("HOST_TO_HOST")     ? MemcpyKind::kHtoH
                    : op.ends_with("PEER_TO_PEER")     ? MemcpyKind::kPtoP
                                                       : MemcpyKind::kUnknown;
    // The copy's GPU: the destination of an upload, else the source (or whichever side is a GPU).
    std::int32_t dst = gpu(r.dst_agent), src = gpu(r.src_agent);
    a.device = a.memcpy_kind == MemcpyKind::kHtoD ? dst : src >= 0 ? src : dst;
    a.bytes = r.bytes;
    a.name = profile_.strings.intern(memcpy_activity_name(a.memcpy_kind));
    keep(a, r);
  }

  void add_hip_call(const Process& p, const Record& r) {
    if (!kind_name(p, r).starts_with("HIP_RUNTIME_API")) return;  // the compiler's registrations are no calls
    auto when = interval(r, "hip_api");
    if (!when) return;
    std::string_view name = operation_name(p, r);
    CpuRange c;
    c.kind = CpuRangeKind::kRuntime;
    c.name = profile_.strings.intern(name.empty() ? "HIP API " + std::to_string(r.operation) : std::string(name));
    c.start = when->first;
    c.end = when->second;
    c.pid = p.pid;
    c.tid = r.thread;
    c.correlation = r.correlation > 0 ? r.correlation : -1;
    profile_.cpu.push_back(c);
  }

  // ROCTx ranges (push/pop and start/stop, one record each in rocprofv3) carry a message; marks, pops and the
  // control API do not and are left out.
  void add_marker(const Process& p, const Record& r) {
    if (!kind_name(p, r).starts_with("MARKER_CORE")) return;
    auto message = p.markers.find(r.correlation);
    if (message == p.markers.end() || !r.start || !r.end || *r.end <= *r.start) return;
    auto when = interval(r, "marker_api");
    if (!when) return;
    CpuRange c;
    c.kind = CpuRangeKind::kAnnotation;
    c.name = profile_.strings.intern(message->second);
    c.start = when->first;
    c.end = when->second;
    c.pid = p.pid;
    c.tid = r.thread;
    profile_.cpu.push_back(c);
  }

  JsonCursor cursor_;
  Profile profile_;
};

}  // namespace

Profile import_rocprofv3_json(ByteSource& source, const std::string& display_name) {
  return Rocprofv3Importer(source, display_name).run();
}

Profile import_rocprofv3_json(const std::string& path) {
  auto source = read_ahead(open_byte_source(path));
  return import_rocprofv3_json(*source, path);
}

}  // namespace cuprobe
