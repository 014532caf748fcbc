#include "collect/record/record_connection.h"

#include <charconv>
#include <cstdlib>
#include <memory>

#include "collect/device/gpu_uuid.h"

namespace cuprobe {
namespace {

std::string loss_reason_name(const wire::Loss& loss) {
  switch (static_cast<wire::LossReason>(loss.reason)) {
    case wire::LossReason::kCuptiDropped:
      return "CUPTI buffer overflow (records)";
    case wire::LossReason::kQueueFull:
      return "library queue full (4 MiB buffers)";
    case wire::LossReason::kSendFailed:
      return "send to cuprobe failed";
    case wire::LossReason::kBadRecord:
      return "unreadable CUPTI buffer";
    case wire::LossReason::kUnhandledKind:
      return "CUPTI activity kind " + std::to_string(loss.detail) + " not recorded";
    case wire::LossReason::kGraphUntimed:
      return "graph launches not timed (CUDA events failed)";
  }
  return "unknown";
}

// "software: why" -> " (why)": the reason a notice's tail gives after its colon.
std::string reason_after_colon(const std::string& text) {
  std::size_t colon = text.find(": ");
  return colon == std::string::npos ? "" : " (" + text.substr(colon + 2) + ")";
}

std::string tail_of(std::string_view payload, std::size_t fixed) { return std::string(payload.substr(fixed)); }

}  // namespace

bool RecordConnection::on_bytes(const char* data, std::size_t n, std::int64_t now_ns) {
  parser_.feed(data, n);
  WireFrame frame;
  while (true) {
    auto status = parser_.next(frame);
    if (status == RecordStreamParser::Status::kNeedMore) return true;
    if (status == RecordStreamParser::Status::kError) {
      std::string what = "bad record stream: " + parser_.error() + " (connection closed)";
      writer_.add_notice(now_ns, pid_, "cuprobe", what);
      messages_.push_back((pid_ >= 0 ? "pid " + std::to_string(pid_) + ": " : std::string()) + what);
      return false;
    }
    handle(frame, now_ns);
  }
}

void RecordConnection::flush_losses() {
  writer_.count_loss("cuprobe", pid_, "max-size reached", dropped_);
  dropped_ = 0;
}

void RecordConnection::on_closed(std::int64_t now_ns) {
  flush_losses();
  if (parser_.pending_bytes() > 0 && !parser_.failed()) {
    writer_.add_notice(now_ns, pid_, "cuprobe",
                       "record stream cut mid-frame (" + std::to_string(parser_.pending_bytes()) + " bytes)");
  }
  if (outside_window_ > 0) {
    writer_.add_notice(now_ns, pid_, "cuprobe",
                       std::to_string(outside_window_) + " records outside the capture window were left out");
  }
  if (pid_ < 0) return;
  writer_.process_ended(pid_, now_ns,
                        goodbye_ ? "exited" : "disconnected without goodbye (killed or crashed; last records lost)");
}

bool RecordConnection::keep(std::int64_t start_realtime) {
  if (dropping_) {
    ++dropped_;
    return false;
  }
  if (!window_.contains(start_realtime)) {
    ++outside_window_;
    return false;
  }
  return true;
}

std::int32_t RecordConnection::device_for(std::int32_t local) const {
  auto it = devices_.find(local);
  return it != devices_.end() ? it->second : local;
}

std::int64_t RecordConnection::name_for(std::uint32_t id) {
  auto it = names_.find(id);
  if (it != names_.end()) return it->second;
  std::int64_t unknown = writer_.name_id("<unknown name " + std::to_string(id) + ">");
  names_[id] = unknown;
  return unknown;
}

// "RANK" or "RANK WORLD_SIZE"; anything else is ignored (the process stays unranked).
void RecordConnection::on_rank(std::string_view text) {
  int rank = -1, world = -1;
  const char* end = text.data() + text.size();
  auto r = std::from_chars(text.data(), end, rank);
  if (r.ec != std::errc() || rank < 0) return;
  if (r.ptr != end) {
    if (*r.ptr != ' ') return;
    auto w = std::from_chars(r.ptr + 1, end, world);
    if (w.ec != std::errc() || w.ptr != end || world <= rank) return;
  }
  writer_.process_rank(pid_, rank, world > 0 ? std::optional<int>(world) : std::nullopt);
}

// One member per frame type; Control frames go the other way (the parent sends them).
void RecordConnection::handle(const WireFrame& frame, std::int64_t now_ns) {
  const char* p = frame.payload.data();
  switch (frame.type) {
    case wire::Type::kHello:
      return on_hello(frame, now_ns);
    case wire::Type::kClockSync: {
      auto c = wire::read_fixed<wire::ClockSync>(p);
      offset_ = c.realtime_ns - c.cupti_ns;
      return;
    }
    case wire::Type::kString:
      return on_string(frame);
    case wire::Type::kKernel:
      return on_kernel(wire::read_fixed<wire::Kernel>(p));
    case wire::Type::kMemcpy:
      return on_memcpy(wire::read_fixed<wire::Memcpy>(p));
    case wire::Type::kGraphLaunch:
      return on_graph_launch(wire::read_fixed<wire::GraphLaunch>(p));
    case wire::Type::kMemset:
      return on_memset(wire::read_fixed<wire::Memset>(p));
    case wire::Type::kRange:
      return on_range(wire::read_fixed<wire::Range>(p));
    case wire::Type::kLoss: {
      auto l = wire::read_fixed<wire::Loss>(p);
      writer_.count_loss("library", pid_, loss_reason_name(l), static_cast<std::int64_t>(l.count));
      return;
    }
    case wire::Type::kNotice:
      return on_notice(frame, now_ns);
    case wire::Type::kDevice:
      return on_device(frame);
    case wire::Type::kCapture:
      return on_capture(wire::read_fixed<wire::Capture>(p));
    case wire::Type::kGoodbye:
      goodbye_ = true;
      return;
    case wire::Type::kControl:
      return;
  }
}

void RecordConnection::on_hello(const WireFrame& frame, std::int64_t now_ns) {
  auto h = wire::read_fixed<wire::Hello>(frame.payload.data());
  hello_ = true;
  pid_ = h.pid;
  offset_ = h.cupti_ns != 0 ? h.realtime_ns - h.cupti_ns : 0;
  writer_.process_started(h.pid, h.ppid, tail_of(frame.payload, sizeof h), now_ns, static_cast<int>(h.cupti_version));
  writer_.set_metadata("clock_offset_ns.pid" + std::to_string(h.pid), std::to_string(offset_));
}

void RecordConnection::on_string(const WireFrame& frame) {
  auto s = wire::read_fixed<wire::String>(frame.payload.data());
  std::string text = tail_of(frame.payload, sizeof s);
  if (s.kind == static_cast<std::uint32_t>(wire::StringKind::kKernelName)) {
    names_[s.id] = writer_.name_id(demangle(text), text);
  } else {
    names_[s.id] = writer_.name_id(text);
  }
}

void RecordConnection::on_kernel(const wire::Kernel& k) {
  RunKernelRow r;
  if (!fill_activity(k, r)) return;
  r.name_id = name_for(k.name_id);
  for (int i = 0; i < 3; ++i) {
    r.grid[i] = k.grid[i];
    r.block[i] = k.block[i];
  }
  r.registers = k.registers;
  r.static_shared = k.static_shared;
  r.dynamic_shared = k.dynamic_shared;
  writer_.add_kernel(r);
}

void RecordConnection::on_memcpy(const wire::Memcpy& m) {
  RunCopyRow r;
  if (!fill_activity(m, r)) return;
  r.kind = name_of_value<MemcpyKind>(m.kind);
  if (r.kind.empty()) r.kind = name_of(MemcpyKind::kUnknown);
  r.bytes = m.bytes;
  writer_.add_memcpy(r);
}

void RecordConnection::on_graph_launch(const wire::GraphLaunch& g) {
  RunCopyRow r;
  if (!fill_activity(g, r)) return;
  r.graph_id = g.graph_id;  // the launched graph itself
  writer_.add_graph_launch(r);
}

void RecordConnection::on_memset(const wire::Memset& m) {
  RunCopyRow r;
  if (!fill_activity(m, r)) return;
  r.bytes = m.bytes;
  writer_.add_memset(r);
}

void RecordConnection::on_range(const wire::Range& g) {
  RunRangeRow r;
  r.start_ns = to_realtime(g.start);
  if (!keep(r.start_ns)) return;
  r.pid = pid_;
  r.tid = g.tid;
  r.end_ns = to_realtime(g.end);
  r.name_id = name_for(g.name_id);
  r.kind = name_of_value<RangeKind>(g.kind);
  if (r.kind.empty()) r.kind = "unknown";  // read back as neither annotation nor API call
  r.correlation = g.correlation;
  writer_.add_range(r);
}

// A notice from the library: said on stderr and kept in the run file; the rank, the kernel and graph timing
// also set what they say (metadata), and "CUPTI busy" means no kernels will come.
void RecordConnection::on_notice(const WireFrame& frame, std::int64_t now_ns) {
  auto n = wire::read_fixed<wire::Notice>(frame.payload.data());
  std::string text = tail_of(frame.payload, sizeof n);
  if (n.code == static_cast<std::uint32_t>(wire::NoticeCode::kCuptiBusy) ||
      text.rfind("kernel tracing unavailable", 0) == 0) {
    gave_up_ = true;
  }
  if (n.code == static_cast<std::uint32_t>(wire::NoticeCode::kRank)) {
    on_rank(text);
    return;
  }
  if (n.code == static_cast<std::uint32_t>(wire::NoticeCode::kKernelTiming)) {
    bool hardware = text == "hardware";
    writer_.set_metadata("kernel_timing", hardware ? "hardware" : "software");
    text = hardware ? "kernels timed by the GPU's hardware event system"
                    : "kernels timed by software instrumentation" + reason_after_colon(text);
  }
  if (n.code == static_cast<std::uint32_t>(wire::NoticeCode::kGraphTiming)) {
    bool events = text == "events";
    writer_.set_metadata("graph_timing", events ? "events" : "cupti");
    text = events ? "graph launches timed by CUDA events on the launching stream"
                  : "graph launches timed by CUPTI's graph tracing" + reason_after_colon(text);
  }
  writer_.add_notice(now_ns, pid_, "library", text);
  messages_.push_back("pid " + std::to_string(pid_) + ": " + text);
}

void RecordConnection::on_device(const WireFrame& frame) {
  auto d = wire::read_fixed<wire::Device>(frame.payload.data());
  RunDeviceRow r;
  r.uuid = format_gpu_uuid(d.uuid);
  auto global = ordinals_.find(r.uuid);
  r.id = global != ordinals_.end() && !r.uuid.empty() ? global->second : d.id;
  devices_[d.id] = r.id;
  r.name = tail_of(frame.payload, sizeof d);
  r.sm_count = d.sm_count;
  r.compute_major = d.compute_major;
  r.compute_minor = d.compute_minor;
  r.memory_bytes = d.memory_bytes;
  writer_.add_device(r);
}

void RecordConnection::on_capture(const wire::Capture& c) {
  writer_.add_capture(c.realtime_ns, pid_, c.on != 0,
                      c.reason == 1   ? "cudaProfilerStart/Stop"
                      : c.reason == 2 ? "CUPTI handed to another tool"
                                      : "cuprobe");
}

}  // namespace cuprobe
