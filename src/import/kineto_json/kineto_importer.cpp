#include "import/kineto_json/kineto_importer.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "common/error.h"
#include "common/usable_cpus.h"
#include "common/utf8.h"
#include "import/kineto_json/begin_end_stacks.h"
#include "import/kineto_json/correlation_by_process.h"
#include "import/kineto_json/element_boundary.h"
#include "import/kineto_json/json_cursor.h"
#include "import/kineto_json/memcpy_direction.h"
#include "import/kineto_json/op_shapes.h"
#include "import/kineto_json/release_behind.h"
#ifdef CUPROBE_HAVE_SIMDJSON
#include "import/kineto_json/simd_window.h"
#endif
#include "import/kineto_json/sort_runs.h"
#include "import/kineto_json/timestamp.h"
#include "import/read_ahead.h"
#include "model/kineto_category.h"
#include "model/python_frame.h"
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
  kProfilerRange,  // Kineto's CUPTI range profiler: one range (often one kernel) and its counter values
  kPython,         // with_stack=True: a Python frame; only the user's are kept (model/python_frame.h)
  kIgnored
};

// A key against a literal as fixed-size compares: in a function as big as read_event,
// std::string_view's == became a call per key (3% of a parse).
template <std::size_t N>
inline bool key_is(std::string_view key, const char (&literal)[N]) {
  return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}

// Fixed-size compares (see key_is); one event in two of a big trace comes through here.
EventCategory parse_event_category(std::string_view cat) {
  namespace k = kineto_category;
  if (key_is(cat, k::kKernel) || key_is(cat, k::kLegacyKernel)) return EventCategory::kKernel;
  if (key_is(cat, k::kCpuOp) || key_is(cat, k::kLegacyOperator)) return EventCategory::kOperator;
  if (key_is(cat, k::kCudaRuntime) || key_is(cat, k::kCudaDriver) || key_is(cat, k::kLegacyRuntime) ||
      key_is(cat, k::kLegacyDriver))
    return EventCategory::kRuntime;
  if (key_is(cat, k::kGpuMemcpy) || key_is(cat, k::kLegacyMemcpy)) return EventCategory::kMemcpy;
  if (key_is(cat, k::kGpuMemset) || key_is(cat, k::kLegacyMemset)) return EventCategory::kMemset;
  if (key_is(cat, k::kUserAnnotation) || key_is(cat, k::kLegacyUserAnnotation)) return EventCategory::kAnnotation;
  if (key_is(cat, k::kGpuUserAnnotation)) return EventCategory::kGpuAnnotation;
  if (key_is(cat, k::kCudaProfilerRange)) return EventCategory::kProfilerRange;
  if (key_is(cat, k::kPythonFunction)) return EventCategory::kPython;
  return EventCategory::kIgnored;
}

bool is_duration_phase(char phase) { return phase == 'B' || phase == 'E'; }

struct RawEvent {
  std::uint64_t offset = 0;
  char phase = 0;
  EventCategory category = EventCategory::kIgnored;
  bool has_category = false;
  std::string name;
  bool unkept = false;  // a Python frame of the libraries: only its start is kept (Profile::unkept_starts)
  std::optional<std::int64_t> ts;
  std::optional<std::int64_t> dur;
  std::int64_t pid = -1;
  std::int64_t tid = -1;
  std::int64_t correlation = -1;
  std::int64_t external_id = -1;
  std::int64_t device = -1;
  std::int64_t stream = -1;
  std::int64_t bytes = -1;
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t registers = -1;
  std::int32_t shared_memory = -1;
  // NCCL kernels' process group (torch >= 2.2 repeats record_param_comms' args on the kernel).
  std::string group_name, group_description, group_ranks;
  std::vector<std::pair<std::string, double>> counters;  // range-profiler events: metric, value
  OpShapeReader shapes;                                  // record_shapes arguments (operators)

  void reset(std::uint64_t at) {
    offset = at;
    phase = 0;
    category = EventCategory::kIgnored;
    has_category = false;
    name.clear();
    unkept = false;
    ts.reset();
    dur.reset();
    pid = tid = correlation = external_id = device = stream = bytes = -1;
    for (int i = 0; i < 3; ++i) grid[i] = block[i] = 0;
    registers = shared_memory = -1;
    group_name.clear();
    group_description.clear();
    group_ranks.clear();
    counters.clear();
    shapes.reset();
  }
};

// "pg 0 (default_pg) ranks [0, 1]": the communicator's name as torch gives it, with what else the trace says.
std::string communicator_label(const RawEvent& ev) {
  std::string label = "pg " + ev.group_name;
  if (!ev.group_description.empty()) label += " (" + ev.group_description + ")";
  if (!ev.group_ranks.empty()) label += " ranks " + ev.group_ranks;
  return label;
}

// An 'E' event, waiting for its 'B'.
struct EndEvent {
  std::optional<std::int64_t> ts;
  std::uint64_t offset = 0;
};

class KinetoImporter {
  using Durations = BeginEndStacks<RawEvent, EndEvent>;

 public:
  KinetoImporter(ByteSource& source, const std::string& name, KinetoReader reader, std::uint64_t start_offset = 0)
      : cursor_(source, name, 4 << 20, start_offset), reader_(reader) {
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
  // Growing the event vectors copied each event about twice and faulted its pages in twice
  // (a tenth of the import of a big trace): room for the events `bytes` of JSON may hold.
  // Room never used is address space, not memory; an underestimate just grows as before.
  void reserve_for(std::uint64_t bytes) {
    // At most one CPU range per 256 bytes and one GPU activity per 1 KiB (Kineto: ~900 and ~4000).
    constexpr std::uint64_t kMaxReserved = std::uint64_t{1} << 22;
    try {
      profile_.cpu.reserve(static_cast<std::size_t>(std::min(bytes / 256, kMaxReserved)));
      profile_.gpu.reserve(static_cast<std::size_t>(std::min(bytes / 1024, kMaxReserved)));
    } catch (const std::bad_alloc&) {  // only room: parse without it
    }
  }

  void speculate_from(const std::string& path, std::uint64_t boundary, std::uint64_t size) {
    speculation_ = std::make_unique<Speculation>();
    speculation_->start = boundary;
    Speculation* spec = speculation_.get();
    std::string name = profile_.file;
    KinetoReader reader = reader_;
    spec->thread = std::thread([spec, path, name, size, reader] {
      try {
        auto source = open_plain_file_from(path, spec->start);
        KinetoImporter half(*source, name, reader, spec->start);
        half.reserve_for(size - spec->start);
        spec->end = half.read_elements_to_array_end();
        spec->profile = std::move(half.profile_);
        spec->durations = std::move(half.durations_);
        spec->profiler_ranges = half.profiler_ranges_;
        spec->simd_events = half.simd_events_;
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
    count_unmatched_durations();
    apply_base_time(profile_.gpu);
    apply_base_time(profile_.cpu);
    apply_base_time(profile_.counters);
    if (base_ns_ != 0) {
      std::erase_if(profile_.unkept_starts, [&](TimeNs& t) {
        auto moved = checked_time_add(t, base_ns_);
        if (moved) t = *moved;
        return !moved;
      });
    }
    link_ids_per_process(profile_);
    memcpy_kinds_from_launches(profile_);
    if (profiler_ranges_ > 0) add_range_profiler_notice();
    if (simd_events_ > 0) profile_.metadata.emplace_back("events_read_by_simdjson", std::to_string(simd_events_));
    sort_nearly_sorted_by_time(profile_);
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
        StringId name;
        if constexpr (std::is_same_v<std::decay_t<decltype(e)>, CounterSample>)
          name = e.metric;
        else
          name = e.name;
        profile_.stats.add(
            ImportStat::kTimeOutOfRange,
            std::string(profile_.name_of(name)) + " (with baseTimeNanoseconds " + std::to_string(base_ns_) + ")");
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
        if (auto v = read_int(cursor_, "baseTimeNanoseconds")) {
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
  template <class P>
  void skip_mistyped(P& in, const char* what) {
    std::uint64_t at = in.offset();
    std::string example = what;
    if (in.peek() == '"')
      example += " = \"" + std::string(in.string()) + "\"";
    else
      in.skip_value();
    stats_->add(ImportStat::kFieldMistyped, example, at);
  }

  // A number field, read tolerantly: a number written as a string is read
  // (and counted); any other type, or text `parse` rejects, is skipped (and counted).
  // The common case (a number that parses) is inlined into the callers; the rest is not.
  template <class P, typename Parse>
  [[gnu::always_inline]] auto read_number(P& in, const char* what, Parse parse) -> decltype(parse(std::string_view())) {
    char c = in.peek();
    if (c == '-' || (c >= '0' && c <= '9')) [[likely]] {
      std::uint64_t at = in.offset();
      auto text = in.number();
      auto v = parse(text);
      if (!v) [[unlikely]]
        count_unparsed(what, text, at);
      return v;
    }
    return read_number_otherwise(in, what, parse);
  }

  [[gnu::noinline, gnu::cold]] void count_unparsed(const char* what, std::string_view text, std::uint64_t at) {
    stats_->add(ImportStat::kFieldMistyped, std::string(what) + " = " + std::string(text), at);
  }

  // A number written as a string, or another type.
  template <class P, typename Parse>
  [[gnu::noinline]] auto read_number_otherwise(P& in, const char* what, Parse parse)
      -> decltype(parse(std::string_view())) {
    char c = in.peek();
    if (c != '"') {
      skip_mistyped(in, what);
      return std::nullopt;
    }
    std::uint64_t at = in.offset();
    auto text = in.string();
    auto v = parse(text);
    stats_->add(v ? ImportStat::kNumberAsString : ImportStat::kFieldMistyped,
                std::string(what) + " = \"" + std::string(text) + "\"", at);
    return v;
  }

  // Lambdas rather than function pointers: the parser is called directly, not through a pointer.
  template <class P>
  std::optional<std::int64_t> read_int(P& in, const char* what) {
    return read_number(in, what, [](std::string_view text) { return integer_text(text); });
  }

  // A field cuprobe keeps as 32 bits; a value beyond is counted and replaced by `fallback`.
  template <class P>
  std::int32_t read_int32_field(P& in, const char* what, std::int32_t fallback) {
    std::uint64_t at = in.offset();
    auto v = read_int(in, what);
    if (!v) return fallback;
    if (*v < INT32_MIN || *v > INT32_MAX) {
      stats_->add(ImportStat::kValueOutOfRange, std::string(what) + " = " + std::to_string(*v), at);
      return fallback;
    }
    return static_cast<std::int32_t>(*v);
  }

  // A rank or a world size: 0 or more, within int; otherwise counted and left unset.
  std::optional<int> read_count_field(const char* what) {
    std::uint64_t at = cursor_.offset();
    auto v = read_int(cursor_, what);
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
          d.id = read_int32_field(cursor_, "deviceProperties.id", -1);
        else if (key == "name" && cursor_.peek() == '"')
          d.name = repair_utf8(cursor_.string());
        else if (key == "numSms")
          d.sm_count = read_int32_field(cursor_, "deviceProperties.numSms", 0);
        else if (key == "computeMajor")
          d.compute_major = read_int32_field(cursor_, "deviceProperties.computeMajor", 0);
        else if (key == "computeMinor")
          d.compute_minor = read_int32_field(cursor_, "deviceProperties.computeMinor", 0);
        else if (key == "totalGlobalMem")
          d.memory_bytes = read_int(cursor_, "deviceProperties.totalGlobalMem").value_or(0);
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
      read_elements_here();
    }
  }

  // For a second thread that starts at a '{' inside traceEvents: elements up to
  // and including the ']' that closes the array; returns the offset after it.
  std::uint64_t read_elements_to_array_end() {
    for (;;) {
      if (cursor_.peek() != '{') cursor_.fail("trace event is not an object");
      read_elements_here();
      if (cursor_.consume_if(',')) continue;
      cursor_.expect(']');
      return cursor_.offset();
    }
  }

  // At an element's '{' (peeked): that element, or a window of elements (simd_window.h), read;
  // the cursor is left after the last one's '}'.
  void read_elements_here() {
#ifdef CUPROBE_HAVE_SIMDJSON
    if (reader_ == KinetoReader::kSimdjson && cursor_.offset() >= simd_resume_at_) {
      if (read_window()) return;
      if (cursor_.peek() != '{') cursor_.fail("trace event is not an object");  // where simdjson stopped
    }
#endif
    if (read_event(cursor_)) commit_event();
    ++profile_.stats.events;
  }

#ifdef CUPROBE_HAVE_SIMDJSON
  // Elements up to a cut within the next kWindowBytes (and before the second thread's start) read
  // by simdjson, each committed once the next one is found (the cut proven there): true, the
  // cursor moved past them. False: the cursor is at the first element simdjson did not read, for
  // the cursor to read; simdjson next tries after this window.
  bool read_window() {
    constexpr std::size_t kWindowBytes = std::size_t{1} << 20;
    if (!simd_) simd_ = std::make_unique<SimdWindow>(kWindowBytes);
    const std::uint64_t at = cursor_.offset();
    std::uint64_t want = kWindowBytes;
    if (speculation_ && !speculation_->settled && speculation_->start > at)
      want = std::min<std::uint64_t>(want, speculation_->start - at + 1);
    std::string_view text = cursor_.lookahead(static_cast<std::size_t>(want));
    std::size_t cut = SimdWindow::cut(text);
    if (cut == 0) return false;
    simd_resume_at_ = at + cut;
    simdjson::ondemand::document doc;
    if (!simd_->start(text.substr(0, cut), at, doc)) return false;
    SimdPull pull(*simd_, profile_.file);
    std::uint64_t element_at = at;  // the element being read, or read and not yet committed
    bool pending = false, keep = false, simd_fell_back = false;
    stats_ = &staged_;
    try {
      simdjson::ondemand::array events;
      if (doc.get_array().get(events)) SimdPull::fallback();
      for (auto element : events) {
        simdjson::ondemand::value v;
        if (element.get(v)) SimdPull::fallback();
        if (pending) commit_staged(keep);
        pending = false;
        std::string_view token = v.raw_json_token();
        element_at = simd_->file_offset(token.data());
        if (token.empty() || token[0] != '{') SimdPull::fallback();
        pull.begin_element(v);
        keep = read_event(pull);
        pending = true;
      }
      const char* after = nullptr;  // the array closed before the window's end: the cursor reads the last element
      if (doc.current_location().get(after) != simdjson::OUT_OF_BOUNDS) SimdPull::fallback();
    } catch (const SimdFallback&) {
      simd_fell_back = true;
    } catch (const InputError&) {  // (the record_shapes arguments, parsed by a second cursor)
      simd_fell_back = true;       // the cursor reads the element and says what is wrong, or not
    }
    if (simd_fell_back) {
      stats_ = &profile_.stats;
      if (!staged_.empty()) staged_ = ImportStats{};
      cursor_.advance(static_cast<std::size_t>(element_at - at));
      return false;
    }
    if (pending) commit_staged(keep);
    stats_ = &profile_.stats;
    cursor_.advance(cut);
    return true;
  }

  void commit_staged(bool keep) {
    if (!staged_.empty()) {
      profile_.stats.merge(staged_);
      staged_ = ImportStats{};
    }
    if (keep) commit_event();
    ++profile_.stats.events;
    ++simd_events_;
  }

  void take_shape(SimdPull& in, std::string_view key, RawEvent& ev) {
    std::uint64_t at = in.offset();
    ev.shapes.take_raw(key, at, *in.raw_value(OpShapeReader::kTailBytes));
  }
#endif

  bool adopt_speculation() {
    Speculation& spec = *speculation_;
    spec.settled = true;
    if (cursor_.offset() != spec.start) return false;  // the guess was not an element boundary
    spec.thread.join();
    if (!spec.ok) return false;
    merge(std::move(spec.profile), std::move(spec.durations), spec.profiler_ranges);
    simd_events_ += spec.simd_events;
    cursor_.discard_until(spec.end);
    profile_.metadata.emplace_back("parsed_in_parts", "2");
    return true;
  }

  void merge(Profile half, Durations later_durations, std::int64_t later_ranges) {
    profile_.gpu.reserve(profile_.gpu.size() + half.gpu.size());
    profile_.cpu.reserve(profile_.cpu.size() + half.cpu.size());
    std::vector<StringId> remap(half.strings.size());
    for (StringId id = 0; id < half.strings.size(); ++id) remap[id] = profile_.strings.intern(half.strings.view(id));
    static_assert(std::is_trivially_copyable_v<GpuActivity> && std::is_trivially_copyable_v<CpuRange>);
    ReleaseBehind gpu_read(half.gpu.data(), half.gpu.size() * sizeof(GpuActivity));
    for (auto& a : half.gpu) {
      a.name = remap[a.name];
      a.communicator = remap[a.communicator];
      profile_.gpu.push_back(a);
      gpu_read.read_up_to(&a + 1);
    }
    const auto inputs_offset = static_cast<std::int32_t>(profile_.op_inputs.size());
    ReleaseBehind cpu_read(half.cpu.data(), half.cpu.size() * sizeof(CpuRange));
    for (auto& r : half.cpu) {
      r.name = remap[r.name];
      r.communicator = remap[r.communicator];
      if (r.inputs >= 0) r.inputs += inputs_offset;
      profile_.cpu.push_back(r);
      cpu_read.read_up_to(&r + 1);
    }
    for (auto& c : half.counters) {
      c.metric = remap[c.metric];
      profile_.counters.push_back(c);
    }
    for (auto& in : half.op_inputs) profile_.op_inputs.push_back(std::move(in));
    profile_.unkept_starts.insert(profile_.unkept_starts.end(), half.unkept_starts.begin(), half.unkept_starts.end());
    profile_.stats.merge(half.stats);
    profiler_ranges_ += later_ranges;
    durations_.join(std::move(later_durations), [&](RawEvent b, const EndEvent& e) { close_duration(b, e); });
  }

  // "pid"/"tid" are numbers in Kineto but names for its synthetic rows ("Spans"): a number
  // written as a string is read (and counted), a name becomes a negative id of its own.
  template <class P>
  [[gnu::always_inline]] std::int64_t read_id(P& in, const char* what) {
    char c = in.peek();
    if (c >= '0' && c <= '9') [[likely]] {
      auto v = integer_text(in.number());
      return v ? *v : -2;
    }
    return read_id_otherwise(in, what);
  }

  template <class P>
  [[gnu::noinline]] std::int64_t read_id_otherwise(P& in, const char* what) {
    char c = in.peek();
    if (c == '"') {
      std::uint64_t at = in.offset();
      auto text = in.string();
      if (auto v = integer_text(text); v && *v >= 0) {
        stats_->add(ImportStat::kNumberAsString, std::string(what) + " = \"" + std::string(text) + "\"", at);
        return *v;
      }
      return name_id(text);
    }
    if (c != '-' && (c < '0' || c > '9')) {
      skip_mistyped(in, what);
      return -2;
    }
    auto v = integer_text(in.number());
    return v ? *v : -2;
  }

  // A stable negative id (below -1) for a pid or tid given as a name: FNV-1a, so both halves of
  // a file parsed in two parts agree without sharing a table.
  static std::int64_t name_id(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;
    for (char ch : text) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
    return -2 - static_cast<std::int64_t>(h >> 2);
  }

  template <class P>
  std::optional<std::int64_t> read_time(P& in, const char* what) {
    return read_number(in, what, [](std::string_view text) { return microseconds_text_to_ns(text); });
  }

  // A string field; another type is skipped and counted.
  template <class P>
  bool string_next(P& in, const char* what) {
    if (in.peek() == '"') return true;
    skip_mistyped(in, what);
    return false;
  }

  // A string arg (another type is skipped and counted), its UTF-8 repaired.
  template <class P>
  void read_text(P& in, const char* what, std::string& out) {
    if (!string_next(in, what)) return;
    out = repair_utf8(in.string());
  }

  template <class P>
  void read_dims(P& in, std::int32_t (&dims)[3], const char* what) {
    if (in.peek() != '[') return skip_mistyped(in, what);  // torch.compile's "grid": "grid(100,)"
    in.expect('[');
    bool first = true;
    int i = 0;
    while (in.next_element(first)) {
      std::int32_t v = read_int32_field(in, what, 0);
      if (i < 3) dims[i] = v;
      ++i;
    }
  }

  template <class P>
  void read_args(P& in, RawEvent& ev) {
    if (in.peek() != '{') {
      in.skip_value();
      stats_->add(ImportStat::kArgsNotObject, ev.name, ev.offset);
      return;
    }
    in.expect('{');
    std::string_view key;
    bool first = true;
    while (in.next_key(key, first)) {
      switch (key.size()) {
        case 4:
          if (key_is(key, "grid")) {
            read_dims(in, ev.grid, "args.grid");
            continue;
          }
          break;
        case 5:
          if (key_is(key, "block")) {
            read_dims(in, ev.block, "args.block");
            continue;
          }
          if (key_is(key, "bytes")) {
            ev.bytes = read_int(in, "args.bytes").value_or(-1);
            continue;
          }
          break;
        case 6:
          if (key_is(key, "device")) {
            ev.device = read_int(in, "args.device").value_or(-1);
            continue;
          }
          if (key_is(key, "stream")) {
            ev.stream = read_int(in, "args.stream").value_or(-1);
            continue;
          }
          break;
        case 11:
          if (key_is(key, "correlation")) {
            ev.correlation = read_int(in, "args.correlation").value_or(-1);
            continue;
          }
          if (key_is(key, "External id") || key_is(key, "external id")) {  // PyTorch 1.8 wrote it in lower case
            ev.external_id = read_int(in, "args.External id").value_or(-1);
            continue;
          }
          break;
        case 13:
          if (key_is(key, "shared memory")) {
            ev.shared_memory = read_int32_field(in, "args.shared memory", -1);
            continue;
          }
          break;
        case 18:
          if (key_is(key, "Process Group Name")) {
            read_text(in, "args.Process Group Name", ev.group_name);
            continue;
          }
          break;
        case 19:
          if (key_is(key, "Process Group Ranks")) {
            read_text(in, "args.Process Group Ranks", ev.group_ranks);
            continue;
          }
          break;
        case 25:
          if (key_is(key, "Process Group Description")) {
            read_text(in, "args.Process Group Description", ev.group_description);
            continue;
          }
          break;
        case 20:
          if (key_is(key, "registers per thread")) {
            ev.registers = read_int32_field(in, "args.registers per thread", -1);
            continue;
          }
          break;
        default:
          break;
      }
      if (ev.category == EventCategory::kProfilerRange && read_counter(in, key, ev)) continue;
      if (is_op_shape_key(key)) {
        take_shape(in, key, ev);
        continue;
      }
      in.skip_value();
    }
    ev.shapes.finish(shape_cache_, in.file_name(), *stats_, ev.name);
  }

  // A range-profiler counter (any numeric arg of a cuda_profiler_range event).
  template <class P>
  bool read_counter(P& in, std::string_view key, RawEvent& ev) {
    char c = in.peek();
    if (c != '-' && (c < '0' || c > '9')) return false;
    std::string metric(key);  // the key's view dies with the next read
    auto text = in.number();
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size()) ev.counters.emplace_back(std::move(metric), value);
    return true;
  }

  template <class P>
  bool read_event(P& in) {
    ev_.reset(in.offset());
    in.expect('{');
    std::string_view key;
    bool first = true;
    while (in.next_key(key, first)) {
      if (key.size() == 2) {
        if (key_is(key, "ph")) {
          if (!string_next(in, "ph")) continue;
          auto ph = in.string();
          ev_.phase = ph.empty() ? '?' : ph[0];
          continue;
        }
        if (key_is(key, "ts")) {
          ev_.ts = read_time(in, "ts");
          continue;
        }
      } else if (key.size() == 3) {
        if (key_is(key, "cat")) {
          if (!string_next(in, "cat")) continue;
          ev_.category = parse_event_category(in.string());
          ev_.has_category = true;
          if ((ev_.category == EventCategory::kIgnored || ev_.category == EventCategory::kGpuAnnotation) &&
              !is_duration_phase(ev_.phase)) {
            in.skip_rest_of_object();  // most events of big traces end here
            return false;
          }
          continue;
        }
        if (key_is(key, "dur")) {
          ev_.dur = read_time(in, "dur");
          continue;
        }
        if (key_is(key, "pid")) {
          ev_.pid = read_id(in, "pid");
          continue;
        }
        if (key_is(key, "tid")) {
          ev_.tid = read_id(in, "tid");
          continue;
        }
      } else if (key_is(key, "name")) {
        if (!string_next(in, "name")) continue;
        std::string_view name = in.string();
        if (ev_.has_category && ev_.category == EventCategory::kPython && !is_duration_phase(ev_.phase)) {
          auto frame = parse_python_frame(name);  // most frames of a with_stack trace are the libraries'
          if (!frame || !is_user_python_file(frame->file)) {
            ev_.unkept = true;  // its name is not needed, its start is
            continue;
          }
        }
        ev_.name.assign(name);
        continue;
      } else if (key_is(key, "args") && !(ev_.has_category && (ev_.category == EventCategory::kIgnored ||
                                                               ev_.category == EventCategory::kPython))) {
        read_args(in, ev_);
        continue;
      }
      in.skip_value();
    }
    return true;
  }

  // The event read_event read, where it returned true.
  void commit_event() {
    if (is_duration_phase(ev_.phase)) return pair_duration_event(ev_);
    keep_event(ev_);
  }

  void take_shape(JsonCursor& in, std::string_view key, RawEvent& ev) { ev.shapes.take(in, key, *stats_, ev.name); }

  // 'B' and 'E' (of every category: an 'E' need not name one) pair per thread into one complete event.
  void pair_duration_event(const RawEvent& ev) {
    std::pair<std::int64_t, std::int64_t> thread{ev.pid, ev.tid};
    if (ev.phase == 'B') {
      RawEvent b = ev;
      b.shapes.own();  // kept open past this part's cache (a file read in parts joins the parts' events)
      return durations_.begin(thread, std::move(b));
    }
    EndEvent e{ev.ts, ev.offset};
    if (auto b = durations_.end(thread, e)) close_duration(*b, e);
  }

  void close_duration(RawEvent& b, const EndEvent& e) {
    b.phase = 'X';
    b.dur.reset();
    if (b.ts && e.ts) b.dur = *e.ts - *b.ts;
    keep_event(b);
  }

  // Once the whole file is read: what is still open, or closed nothing.
  void count_unmatched_durations() {
    durations_.for_each_open([&](const RawEvent& b) {
      if (b.category != EventCategory::kIgnored) profile_.stats.add(ImportStat::kUnmatchedBegin, b.name, b.offset);
    });
    for (const auto& [thread, e] : durations_.unmatched_ends()) {
      profile_.stats.add(ImportStat::kUnmatchedEnd,
                         "pid " + std::to_string(thread.first) + " tid " + std::to_string(thread.second), e.offset);
    }
  }

  void add_range_profiler_notice() {
    profile_.notices.push_back(
        "Kineto CUPTI range-profiler trace (cuda_profiler_range): " + std::to_string(profiler_ranges_) +
        " ranges with " + std::to_string(profile_.counters.size()) +
        " counter values, read as one kernel and its counters per range. Kineto spreads the ranges evenly over the "
        "profiled span: their times and time shares are not measured, their counters are.");
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

  // Each distinct set of operator arguments is kept once.
  std::int32_t intern_inputs(const OpShapeReader& in) {
    OpShapeCache::Entry* cached = in.cached();
    if (cached && cached->interned >= 0) return cached->interned;
    std::span<const OpArg> args = in.args();
    auto& bucket = inputs_by_hash_[hash_op_args(args)];
    std::int32_t index = -1;
    for (std::int32_t i : bucket) {
      if (std::ranges::equal(profile_.op_inputs[static_cast<std::size_t>(i)].args, args)) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      index = static_cast<std::int32_t>(profile_.op_inputs.size());
      bucket.push_back(index);
      profile_.op_inputs.push_back(OpInputs{{args.begin(), args.end()}});
    }
    if (cached) cached->interned = index;
    return index;
  }

  void keep_event(const RawEvent& ev) {
    if (ev.category == EventCategory::kIgnored || ev.category == EventCategory::kGpuAnnotation) return;
    if (ev.category == EventCategory::kPython) {  // the user's frames only: where in their code work comes from
      auto frame = ev.unkept ? std::nullopt : parse_python_frame(ev.name);
      if (!frame || !is_user_python_file(frame->file)) {
        if (ev.ts) profile_.unkept_starts.push_back(*ev.ts);
        return;
      }
    }
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
               ev.category == EventCategory::kMemset || ev.category == EventCategory::kProfilerRange;
    if (gpu) {
      if (*ev.dur == 0) profile_.stats.add(ImportStat::kZeroDurationGpu, ev.name, ev.offset);
      if (ev.correlation < 0 && ev.category != EventCategory::kProfilerRange)
        profile_.stats.add(ImportStat::kNoCorrelation, ev.name, ev.offset);
      GpuActivity a;
      a.kind = ev.category == EventCategory::kMemcpy   ? GpuActivityKind::kMemcpy
               : ev.category == EventCategory::kMemset ? GpuActivityKind::kMemset
                                                       : GpuActivityKind::kKernel;  // kernels, profiler ranges
      if (a.kind == GpuActivityKind::kMemcpy) a.memcpy_kind = memcpy_kind_from_name(ev.name);
      // Copies and memsets get the names every importer gives them (model/kinds.h).
      a.name = a.kind == GpuActivityKind::kMemcpy   ? profile_.strings.intern(memcpy_activity_name(a.memcpy_kind))
               : a.kind == GpuActivityKind::kMemset ? profile_.strings.intern(kMemsetActivityName)
                                                    : intern(ev.name, ev.offset);
      a.start = *ev.ts;
      a.end = *end;
      // Without "device", Kineto's GPU rows give it as pid; a named pid (a negative id) gives none.
      std::int64_t device = ev.device >= 0 ? ev.device : ev.pid;
      a.device = device >= 0 && device <= INT32_MAX ? static_cast<std::int32_t>(device) : -1;
      a.stream = ev.stream >= 0 ? ev.stream : ev.tid;
      a.correlation = ev.correlation;
      a.external_id = ev.external_id;
      a.bytes = ev.bytes;
      for (int i = 0; i < 3; ++i) {
        a.grid[i] = ev.grid[i];
        a.block[i] = ev.block[i];
      }
      a.registers_per_thread = ev.registers;
      a.shared_memory_bytes = ev.shared_memory;
      if (!ev.group_name.empty()) a.communicator = profile_.strings.intern(communicator_label(ev));
      profile_.gpu.push_back(a);
      if (ev.category == EventCategory::kProfilerRange) {
        ++profiler_ranges_;
        for (const auto& [metric, value] : ev.counters)
          profile_.counters.push_back({a.device, a.start, a.end,
                                       profile_.strings.intern(is_valid_utf8(metric) ? metric : repair_utf8(metric)),
                                       value});
      }
      return;
    }
    CpuRange r;
    r.kind = ev.category == EventCategory::kRuntime      ? CpuRangeKind::kRuntime
             : ev.category == EventCategory::kAnnotation ? CpuRangeKind::kAnnotation
             : ev.category == EventCategory::kPython     ? CpuRangeKind::kPython
                                                         : CpuRangeKind::kOperator;
    r.name = intern(ev.name, ev.offset);
    r.start = *ev.ts;
    r.end = *end;
    r.pid = ev.pid;
    r.tid = ev.tid;
    r.correlation = ev.correlation;
    r.external_id = ev.external_id;
    if (r.kind == CpuRangeKind::kOperator && !ev.shapes.empty()) r.inputs = intern_inputs(ev.shapes);
    if (!ev.group_name.empty()) r.communicator = profile_.strings.intern(communicator_label(ev));
    profile_.cpu.push_back(r);
  }

  struct Speculation {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    bool ok = false;
    bool settled = false;  // adopted or abandoned
    Profile profile;
    Durations durations;
    std::int64_t profiler_ranges = 0;
    std::int64_t simd_events = 0;
    std::thread thread;
  };

  JsonCursor cursor_;
  KinetoReader reader_;
  Profile profile_;
  ImportStats* stats_ = &profile_.stats;  // where reading counts: staged_ while simdjson reads an element
#ifdef CUPROBE_HAVE_SIMDJSON
  ImportStats staged_;
  std::unique_ptr<SimdWindow> simd_;
  std::uint64_t simd_resume_at_ = 0;
#endif
  std::int64_t simd_events_ = 0;  // events simdjson read (the rest: the cursor)
  std::unique_ptr<Speculation> speculation_;
  RawEvent ev_;
  Durations durations_;
  std::int64_t profiler_ranges_ = 0;
  std::int64_t base_ns_ = 0;
  bool saw_events_ = false;
  struct NameEntry {
    StringId id;
    bool valid_utf8;
  };
  std::unordered_map<std::string, NameEntry> raw_names_;
  std::unordered_map<std::size_t, std::vector<std::int32_t>> inputs_by_hash_;
  OpShapeCache shape_cache_;
};

}  // namespace

bool kineto_simdjson_built() {
#ifdef CUPROBE_HAVE_SIMDJSON
  return true;
#else
  return false;
#endif
}

KinetoReader default_kineto_reader() {
  const char* env = std::getenv("CUPROBE_KINETO_READER");
  if (env && std::string_view(env) == "simdjson" && kineto_simdjson_built()) return KinetoReader::kSimdjson;
  return KinetoReader::kCursor;
}

Profile import_kineto_json(ByteSource& source, const std::string& display_name, KinetoReader reader) {
  return KinetoImporter(source, display_name, reader).run();
}

Profile import_kineto_json(const std::string& path, std::uint64_t split_above, KinetoReader reader) {
  auto source = read_ahead(open_byte_source(path));
  KinetoImporter importer(*source, path, reader);
  if (split_above == kDefaultSplitAbove) {
    if (const char* env = std::getenv("CUPROBE_SPLIT_ABOVE")) {
      std::uint64_t v = 0;
      auto [end, err] = std::from_chars(env, env + std::strlen(env), v);
      if (err == std::errc() && *end == '\0') split_above = v;
    }
  }
  std::error_code ec;
  std::uint64_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > split_above && std::string_view(source->encoding()) == "plain" && usable_cpus() > 1) {
    if (auto boundary = find_element_boundary(path, size / 2)) {
      importer.reserve_for(*boundary);
      importer.speculate_from(path, *boundary, size);
    }
  }
  return importer.run();
}

}  // namespace cuprobe
