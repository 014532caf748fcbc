// One injected process's connection, parent side: checks its frames
// (wire/record_wire.h), puts timestamps on CLOCK_REALTIME, demangles kernel
// names and writes the rows into the run file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/demangle.h"  // kernel names are demangled as they come in
#include "store/run_file_writer.h"
#include "wire/capture_window.h"
#include "wire/record_stream_parser.h"

namespace cuprobe {

using GpuOrdinals = std::map<std::string, int>;  // GPU UUID -> cuprobe's CUDA ordinal

class RecordConnection {
 public:
  // `ordinals`: cuprobe's own device ordinal per GPU UUID. A process's device numbers
  // are mapped through it, so that rows from processes with different
  // CUDA_VISIBLE_DEVICES, and the counter samples, name a GPU the same way.
  RecordConnection(RunFileWriter& writer, const CaptureWindow& window, GpuOrdinals ordinals = {})
      : writer_(writer), window_(window), ordinals_(std::move(ordinals)) {}

  // Feeds bytes from the socket. Returns false once the stream is invalid
  // (the reason is in the run file and in messages()); the caller closes it.
  bool on_bytes(const char* data, std::size_t n, std::int64_t now_ns);
  // The connection closed: record how the process ended, as far as we know.
  void on_closed(std::int64_t now_ns);

  std::int64_t pid() const { return pid_; }
  bool said_goodbye() const { return goodbye_; }
  bool recording_kernels() const { return hello_ && !gave_up_; }
  // Set when records must be dropped (--max-size reached); counted as losses.
  void set_dropping(bool dropping) { dropping_ = dropping; }
  // Lines for stderr (notices from the library, protocol errors); drained by the caller.
  std::vector<std::string> take_messages() { return std::move(messages_); }
  std::int64_t clock_offset_ns() const { return offset_; }
  // Writes the count of records dropped since the last call (--max-size).
  void flush_losses();

 private:
  void handle(const WireFrame& frame, std::int64_t now_ns);  // by frame type, to the members below
  void on_hello(const WireFrame& frame, std::int64_t now_ns);
  void on_string(const WireFrame& frame);
  void on_kernel(const wire::Kernel& k);
  void on_memcpy(const wire::Memcpy& m);
  void on_graph_launch(const wire::GraphLaunch& g);
  void on_memset(const wire::Memset& m);
  void on_range(const wire::Range& g);
  void on_notice(const WireFrame& frame, std::int64_t now_ns);
  void on_device(const WireFrame& frame);
  void on_capture(const wire::Capture& c);
  void on_rank(std::string_view text);
  std::int64_t to_realtime(std::int64_t cupti_ns) const { return cupti_ns + offset_; }
  bool keep(std::int64_t start_realtime);
  std::int64_t name_for(std::uint32_t id);
  std::int32_t device_for(std::int32_t local) const;
  // The fields every GPU activity record shares, onto the realtime clock and cuprobe's
  // device numbers; false when the record falls outside the capture window.
  bool fill_activity(const wire::Activity& w, RunActivityRow& r) {
    r.start_ns = to_realtime(w.start);
    if (!keep(r.start_ns)) return false;
    r.pid = pid_;
    r.device = device_for(w.device);
    r.stream = w.stream;
    r.end_ns = to_realtime(w.end);
    r.correlation = w.correlation;
    r.graph_id = w.graph_id == 0 ? -1 : w.graph_id;  // 0 = not launched from a graph
    return true;
  }

  RunFileWriter& writer_;
  const CaptureWindow& window_;
  RecordStreamParser parser_;
  std::int64_t pid_ = -1;
  bool hello_ = false;
  bool goodbye_ = false;
  bool gave_up_ = false;
  bool dropping_ = false;
  std::int64_t offset_ = 0;
  std::unordered_map<std::uint32_t, std::int64_t> names_;  // library string id -> names.id
  GpuOrdinals ordinals_;
  std::unordered_map<std::int32_t, std::int32_t> devices_;  // the process's ordinal -> cuprobe's
  std::int64_t outside_window_ = 0;
  std::int64_t dropped_ = 0;
  std::vector<std::string> messages_;
};

}  // namespace cuprobe
