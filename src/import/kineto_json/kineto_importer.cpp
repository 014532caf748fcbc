#include "import/kineto_json/kineto_importer.h"

#include <filesystem>
#include <memory>
#include <thread>
#include <unordered_map>

#include "common/error.h"
#include "common/utf8.h"
#include "import/kineto_json/element_boundary.h"
#include "import/kineto_json/json_cursor.h"
#include "import/kineto_json/timestamp.h"
#include "model/time_range.h"

namespace cuprobe {
namespace {

enum class EventCategory : std::uint8_t {
  kKernel,
  kMemcpy,
  kMemset,
  kRuntime,
  kAnnotation,
  kGpuAnnotation,
  kOperator,
  kIgnored
};

EventCategory parse_event_category(std::string_view cat) {
  // Current Kineto spells these in snake case; PyTorch before 1.10 capitalised them.
  if (cat == "kernel" || cat == "Kernel") return EventCategory::kKernel;
  if (cat == "gpu_memcpy" || cat == "Memcpy") return EventCategory::kMemcpy;
  if (cat == "gpu_memset" || cat == "Memset") return EventCategory::kMemset;
  if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime" || cat == "Driver")
    return EventCategory::kRuntime;
  if (cat == "user_annotation" || cat == "User_annotation") return EventCategory::kAnnotation;
  if (cat == "gpu_user_annotation") return EventCategory::kGpuAnnotation;
  if (cat == "cpu_op" || cat == "Operator") return EventCategory::kOperator;
  return EventCategory::kIgnored;
}

MemcpyKind memcpy_kind_from_name(std::string_view name) {
  for (std::size_t i = 0; i < enum_count<MemcpyKind>(); ++i) {
    MemcpyKind k = enum_at<MemcpyKind>(i);
    if (k != MemcpyKind::kUnknown && name.find(name_of(k)) != std::string_view::npos) return k;
  }
  return MemcpyKind::kUnknown;
}

struct RawEvent {
  std::uint64_t offset = 0;
  char phase = 0;
  EventCategory category = EventCategory::kIgnored;
  bool has_category = false;
  std::string name;
  std::optional<std::int64_t> ts;
  std::optional<std::int64_t> dur;
  std::int64_t pid = -1;
  std::int64_t tid = -1;
  std::int64_t correlation = -1;
  std::int64_t device = -1;
  std::int64_t stream = -1;
  std::int64_t bytes = -1;
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t registers = -1;
  std::int32_t shared_memory = -1;

  void reset(std::uint64_t at) {
    offset = at;
    phase = 0;
    category = EventCategory::kIgnored;
    has_category = false;
    name.clear();
    ts.reset();
    dur.reset();
    pid = tid = correlation = device = stream = bytes = -1;
    for (int i = 0; i < 3; ++i) grid[i] = block[i] = 0;
    registers = shared_memory = -1;
  }
};

class KinetoImporter {
 public:
  KinetoImporter(ByteSource& source, const std::string& name, std::uint64_t start_offset = 0)
      : cursor_(source, name, 4 << 20, start_offset) {
    profile_.file = name;
    profile_.source = "kineto";
  }
  ~KinetoImporter() {
    if (speculation_ && speculation_->thread.joinable()) speculation_->thread.join();
  }
  KinetoImporter(const KinetoImporter&) = delete;
  KinetoImporter& operator=(const KinetoImporter&) = delete;

  // Parses the events after `boundary` on another thread while this one parses
  // from the start; adopted only if this thread reaches exactly that boundary
  // between two elements of traceEvents.
  void speculate_from(const std::string& path, std::uint64_t boundary) {
    speculation_ = std::make_unique<Speculation>();
    speculation_->start = boundary;
    Speculation* spec = speculation_.get();
    std::string name = profile_.file;
    spec->thread = std::thread([spec, path, name] {
      try {
        auto source = open_plain_file_from(path, spec->start);
        KinetoImporter half(*source, name, spec->start);
        spec->end = half.read_elements_to_array_end();
        spec->profile = std::move(half.profile_);
        spec->ok = true;
      } catch (...) {
        spec->ok = false;  // the guess was wrong, or the data is bad: the main thread will see for itself
      }
    });
  }

  Profile run() {
    char first = cursor_.peek();
    if (first == '[') {
      read_event_array();  // the bare-array form of the Chrome trace format
    } else if (first == '{') {
      read_top_level_object();
    } else if (first == '\0') {
      cursor_.fail("empty file: not a trace");
    } else {
      cursor_.fail(std::string("not a JSON trace: starts with '") + first + "'");
    }
    if (!cursor_.at_end()) cursor_.fail("unexpected data after the end of the JSON document");
    if (!saw_events_) cursor_.fail_at(0, "not a Kineto/Chrome trace: no \"traceEvents\" array");
    apply_base_time(profile_.gpu);
    apply_base_time(profile_.cpu);
    profile_.sort_by_time();
    return std::move(profile_);
  }

 private:
  // Moves times by baseTimeNanoseconds; an event it would take out of range is dropped and counted.
  template <typename Events>
  void apply_base_time(Events& events) {
    if (base_ns_ == 0) return;
    std::erase_if(events, [&](auto& e) {
      auto start = checked_time_add(e.start, base_ns_), end = checked_time_add(e.end, base_ns_);
      if (!start || !end) {
        profile_.stats.add(
            ImportStat::kTimeOutOfRange,
            std::string(profile_.name_of(e.name)) + " (with baseTimeNanoseconds " + std::to_string(base_ns_) + ")");
        return true;
      }
      e.start = *start;
      e.end = *end;
      return false;
    });
  }

  void read_top_level_object() {
    cursor_.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) {
      if (key == "traceEvents") {
        if (cursor_.peek() != '[') cursor_.fail("\"traceEvents\" must be an array");
        read_event_array();
      } else if (key == "deviceProperties") {
        read_device_properties();
      } else if (key == "distributedInfo") {
        read_distributed_info();
      } else if (key == "baseTimeNanoseconds") {
        if (auto v = read_int("baseTimeNanoseconds")) {
          base_ns_ = *v;
          profile_.metadata.emplace_back("baseTimeNanoseconds", std::to_string(*v));
        }
      } else if (key == "traceName" || key == "trace_id" || key == "cuda_runtime_version" ||
                 key == "cuda_driver_version" || key == "cupti_version" || key == "displayTimeUnit") {
        read_metadata(std::string(key));
      } else {
        cursor_.skip_value();
      }
    }
  }

  void read_metadata(const std::string& key) {
    char c = cursor_.peek();
    if (c == '"') {
      profile_.metadata.emplace_back(key, repair_utf8(cursor_.string()));
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      profile_.metadata.emplace_back(key, std::string(cursor_.number()));
    } else {
      cursor_.skip_value();
    }
  }

  // Skips a value of the wrong type for `what`, counted with the value when it is a string.
  void skip_mistyped(const char* what) {
    std::uint64_t at = cursor_.offset();
    std::string example = what;
    if (cursor_.peek() == '"')
      example += " = \"" + std::string(cursor_.string()) + "\"";
    else
      cursor_.skip_value();
    profile_.stats.add(ImportStat::kFieldMistyped, example, at);
  }

  // A number field, read tolerantly: a number written as a string is read
  // (and counted); any other type, or text `parse` rejects, is skipped (and counted).
  template <typename Parse>
  auto read_number(const char* what, Parse parse) -> decltype(parse(std::string_view())) {
    char c = cursor_.peek();
    if (c == '-' || (c >= '0' && c <= '9')) {
      std::uint64_t at = cursor_.offset();
      auto text = cursor_.number();
      auto v = parse(text);
      if (!v) profile_.stats.add(ImportStat::kFieldMistyped, std::string(what) + " = " + std::string(text), at);
      return v;
    }
    if (c != '"') {
      skip_mistyped(what);
      return std::nullopt;
    }
    std::uint64_t at = cursor_.offset();
    auto text = cursor_.string();
    auto v = parse(text);
    profile_.stats.add(v ? ImportStat::kNumberAsString : ImportStat::kFieldMistyped,
                       std::string(what) + " = \"" + std::string(text) + "\"", at);
    return v;
  }

  std::optional<std::int64_t> read_int(const char* what) { return read_number(what, integer_text); }

  // A field cuprobe keeps as 32 bits; a value beyond is counted and replaced by `fallback`.
  std::int32_t read_int32_field(const char* what, std::int32_t fallback) {
    std::uint64_t at = cursor_.offset();
    auto v = read_int(what);
    if (!v) return fallback;
    if (*v < INT32_MIN || *v > INT32_MAX) {
      profile_.stats.add(ImportStat::kValueOutOfRange, std::string(what) + " = " + std::to_string(*v), at);
      return fallback;
    }
    return static_cast<std::int32_t>(*v);
  }

  // A rank or a world size: 0 or more, within int; otherwise counted and left unset.
  std::optional<int> read_count_field(const char* what) {
    std::uint64_t at = cursor_.offset();
    auto v = read_int(what);
    if (!v) return std::nullopt;
    if (*v < 0 || *v > INT32_MAX) {
      profile_.stats.add(ImportStat::kValueOutOfRange, std::string(what) + " = " + std::to_string(*v), at);
      return std::nullopt;
    }
    return static_cast<int>(*v);
  }

  void read_device_properties() {
    if (cursor_.peek() != '[') cursor_.fail("\"deviceProperties\" must be an array");
    cursor_.expect('[');
    bool first = true;
    while (cursor_.next_element(first)) {
      if (cursor_.peek() != '{') cursor_.fail("\"deviceProperties\" entries must be objects");
      cursor_.expect('{');
      DeviceInfo d;
      std::string_view key;
      bool first_key = true;
      while (cursor_.next_key(key, first_key)) {
        if (key == "id")
          d.id = read_int32_field("deviceProperties.id", -1);
        else if (key == "name" && cursor_.peek() == '"')
          d.name = repair_utf8(cursor_.string());
        else if (key == "numSms")
          d.sm_count = read_int32_field("deviceProperties.numSms", 0);
        else if (key == "computeMajor")
          d.compute_major = read_int32_field("deviceProperties.computeMajor", 0);
        else if (key == "computeMinor")
          d.compute_minor = read_int32_field("deviceProperties.computeMinor", 0);
        else if (key == "totalGlobalMem")
          d.memory_bytes = read_int("deviceProperties.totalGlobalMem").value_or(0);
        else
          cursor_.skip_value();
      }
      profile_.devices.push_back(std::move(d));
    }
  }

  void read_distributed_info() {
    if (cursor_.peek() != '{') {
      cursor_.skip_value();
      return;
    }
    cursor_.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) {
      if (key == "rank")
        profile_.rank = read_count_field("distributedInfo.rank");
      else if (key == "world_size")
        profile_.world_size = read_count_field("distributedInfo.world_size");
      else
        cursor_.skip_value();
    }
  }

  void read_event_array() {
    saw_events_ = true;
    cursor_.expect('[');
    bool first = true;
    while (cursor_.next_element(first)) {
      if (cursor_.peek() != '{') cursor_.fail("trace event is not an object");
      if (speculation_ && !speculation_->settled && cursor_.offset() >= speculation_->start && adopt_speculation()) {
        return;
      }
      read_event();
      ++profile_.stats.events;
    }
  }

  // For a second thread that starts at a '{' inside traceEvents: elements up to
  // and including the ']' that closes the array; returns the offset after it.
  std::uint64_t read_elements_to_array_end() {
    for (;;) {
      if (cursor_.peek() != '{') cursor_.fail("trace event is not an object");
      read_event();
      ++profile_.stats.events;
      if (cursor_.consume_if(',')) continue;
      cursor_.expect(']');
      return cursor_.offset();
    }
  }

  bool adopt_speculation() {
    Speculation& spec = *speculation_;
    spec.settled = true;
    if (cursor_.offset() != spec.start) return false;  // the guess was not an element boundary
    spec.thread.join();
    if (!spec.ok) return false;
    merge(std::move(spec.profile));
    cursor_.discard_until(spec.end);
    profile_.metadata.emplace_back("parsed_in_parts", "2");
    return true;
  }

  void merge(Profile half) {
    std::vector<StringId> remap(half.strings.size());
    for (StringId id = 0; id < half.strings.size(); ++id) remap[id] = profile_.strings.intern(half.strings.view(id));
    for (auto& a : half.gpu) {
      a.name = remap[a.name];
      profile_.gpu.push_back(a);
    }
    for (auto& r : half.cpu) {
      r.name = remap[r.name];
      profile_.cpu.push_back(r);
    }
    profile_.stats.merge(half.stats);
  }

  // "pid"/"tid" are numbers in Kineto but strings for its synthetic rows.
  std::int64_t read_id() {
    char c = cursor_.peek();
    if (c == '"') {
      cursor_.string();
      return -2;
    }
    auto v = integer_text(cursor_.number());
    return v ? *v : -2;
  }

  std::optional<std::int64_t> read_time(const char* what) { return read_number(what, microseconds_text_to_ns); }

  // A string field; another type is skipped and counted.
  bool string_next(const char* what) {
    if (cursor_.peek() == '"') return true;
    skip_mistyped(what);
    return false;
  }

  void read_dims(std::int32_t (&dims)[3], const char* what) {
    if (cursor_.peek() != '[') return skip_mistyped(what);  // torch.compile's "grid": "grid(100,)"
    cursor_.expect('[');
    bool first = true;
    int i = 0;
    while (cursor_.next_element(first)) {
      std::int32_t v = read_int32_field(what, 0);
      if (i < 3) dims[i] = v;
      ++i;
    }
  }

  void read_args(RawEvent& ev) {
    if (cursor_.peek() != '{') {
      cursor_.skip_value();
      profile_.stats.add(ImportStat::kArgsNotObject, ev.name, ev.offset);
      return;
    }
    cursor_.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) {
      switch (key.size()) {
        case 4:
          if (key == "grid") {
            read_dims(ev.grid, "args.grid");
            continue;
          }
          break;
        case 5:
          if (key == "block") {
            read_dims(ev.block, "args.block");
            continue;
          }
          if (key == "bytes") {
            ev.bytes = read_int("args.bytes").value_or(-1);
            continue;
          }
          break;
        case 6:
          if (key == "device") {
            ev.device = read_int("args.device").value_or(-1);
            continue;
          }
          if (key == "stream") {
            ev.stream = read_int("args.stream").value_or(-1);
            continue;
          }
          break;
        case 11:
          if (key == "correlation") {
            ev.correlation = read_int("args.correlation").value_or(-1);
            continue;
          }
          break;
        case 13:
          if (key == "shared memory") {
            ev.shared_memory = read_int32_field("args.shared memory", -1);
            continue;
          }
          break;
        case 20:
          if (key == "registers per thread") {
            ev.registers = read_int32_field("args.registers per thread", -1);
            continue;
          }
          break;
        default:
          break;
      }
      cursor_.skip_value();
    }
  }

  void read_event() {
    ev_.reset(cursor_.offset());
    cursor_.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) {
      if (key.size() == 2) {
        if (key == "ph") {
          if (!string_next("ph")) continue;
          auto ph = cursor_.string();
          ev_.phase = ph.empty() ? '?' : ph[0];
          continue;
        }
        if (key == "ts") {
          ev_.ts = read_time("ts");
          continue;
        }
      } else if (key.size() == 3) {
        if (key == "cat") {
          if (!string_next("cat")) continue;
          ev_.category = parse_event_category(cursor_.string());
          ev_.has_category = true;
          if (ev_.category == EventCategory::kIgnored || ev_.category == EventCategory::kGpuAnnotation) {
            cursor_.skip_rest_of_object();  // most events of big traces (python_function) end here
            return;
          }
          continue;
        }
        if (key == "dur") {
          ev_.dur = read_time("dur");
          continue;
        }
        if (key == "pid") {
          ev_.pid = read_id();
          continue;
        }
        if (key == "tid") {
          ev_.tid = read_id();
          continue;
        }
      } else if (key == "name") {
        if (!string_next("name")) continue;
        ev_.name.assign(cursor_.string());
        continue;
      } else if (key == "args") {
        read_args(ev_);
        continue;
      }
      cursor_.skip_value();
    }
    keep_event(ev_);
  }

  // Counted per event (not per distinct name) so the count does not depend on how the file was split.
  StringId intern(const std::string& raw, std::uint64_t offset) {
    auto it = raw_names_.find(raw);
    if (it == raw_names_.end()) {
      bool valid = is_valid_utf8(raw);
      it = raw_names_.emplace(raw, NameEntry{profile_.strings.intern(valid ? raw : repair_utf8(raw)), valid}).first;
    }
    if (!it->second.valid_utf8) profile_.stats.add(ImportStat::kInvalidUtf8, raw, offset);
    return it->second.id;
  }

  void keep_event(const RawEvent& ev) {
    if (ev.category == EventCategory::kIgnored || ev.category == EventCategory::kGpuAnnotation) return;
    if (ev.phase != 'X') {
      profile_.stats.add(ImportStat::kNotCompleteEvent, ev.name, ev.offset);
      return;
    }
    if (!ev.ts || !ev.dur) {
      profile_.stats.add(ImportStat::kEventMissingField,
                         ev.name + (ev.ts ? " (no usable \"dur\")" : " (no usable \"ts\")"), ev.offset);
      return;
    }
    if (*ev.dur < 0) {
      profile_.stats.add(ImportStat::kNegativeDuration, ev.name, ev.offset);
      return;
    }
    auto end = checked_time_add(*ev.ts, *ev.dur);
    if (!time_in_range(*ev.ts) || !end) {
      profile_.stats.add(ImportStat::kTimeOutOfRange, ev.name, ev.offset);
      return;
    }
    bool gpu = ev.category == EventCategory::kKernel || ev.category == EventCategory::kMemcpy ||
               ev.category == EventCategory::kMemset;
    if (gpu) {
      if (*ev.dur == 0) profile_.stats.add(ImportStat::kZeroDurationGpu, ev.name, ev.offset);
      if (ev.correlation < 0) profile_.stats.add(ImportStat::kNoCorrelation, ev.name, ev.offset);
      GpuActivity a;
      a.kind = ev.category == EventCategory::kKernel   ? GpuActivityKind::kKernel
               : ev.category == EventCategory::kMemcpy ? GpuActivityKind::kMemcpy
                                                       : GpuActivityKind::kMemset;
      if (a.kind == GpuActivityKind::kMemcpy) a.memcpy_kind = memcpy_kind_from_name(ev.name);
      // Copies and memsets get the names every importer gives them (model/kinds.h).
      a.name = a.kind == GpuActivityKind::kMemcpy   ? profile_.strings.intern(memcpy_activity_name(a.memcpy_kind))
               : a.kind == GpuActivityKind::kMemset ? profile_.strings.intern(kMemsetActivityName)
                                                    : intern(ev.name, ev.offset);
      a.start = *ev.ts;
      a.end = *end;
      a.device = static_cast<std::int32_t>(ev.device >= 0 ? ev.device : ev.pid);
      a.stream = ev.stream >= 0 ? ev.stream : ev.tid;
      a.correlation = ev.correlation;
      a.bytes = ev.bytes;
      for (int i = 0; i < 3; ++i) {
        a.grid[i] = ev.grid[i];
        a.block[i] = ev.block[i];
      }
      a.registers_per_thread = ev.registers;
      a.shared_memory_bytes = ev.shared_memory;
      profile_.gpu.push_back(a);
      return;
    }
    CpuRange r;
    r.kind = ev.category == EventCategory::kRuntime      ? CpuRangeKind::kRuntime
             : ev.category == EventCategory::kAnnotation ? CpuRangeKind::kAnnotation
                                                         : CpuRangeKind::kOperator;
    r.name = intern(ev.name, ev.offset);
    r.start = *ev.ts;
    r.end = *end;
    r.pid = ev.pid;
    r.tid = ev.tid;
    r.correlation = ev.correlation;
    profile_.cpu.push_back(r);
  }

  struct Speculation {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    bool ok = false;
    bool settled = false;  // adopted or abandoned
    Profile profile;
    std::thread thread;
  };

  JsonCursor cursor_;
  Profile profile_;
  std::unique_ptr<Speculation> speculation_;
  RawEvent ev_;
  std::int64_t base_ns_ = 0;
  bool saw_events_ = false;
  struct NameEntry {
    StringId id;
    bool valid_utf8;
  };
  std::unordered_map<std::string, NameEntry> raw_names_;
};

}  // namespace

Profile import_kineto_json(ByteSource& source, const std::string& display_name) {
  return KinetoImporter(source, display_name).run();
}

Profile import_kineto_json(const std::string& path, std::uint64_t split_above) {
  auto source = open_byte_source(path);
  KinetoImporter importer(*source, path);
  std::error_code ec;
  std::uint64_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > split_above && std::string_view(source->encoding()) == "plain" &&
      std::thread::hardware_concurrency() > 1) {
    if (auto boundary = find_element_boundary(path, size / 2)) importer.speculate_from(path, *boundary);
  }
  return importer.run();
}

}  // namespace cuprobe
