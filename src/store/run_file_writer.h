// Writes a run file (docs/run-file.md) as the data arrives: rows go into an
// open transaction that is committed every commit interval, so a killed
// writer leaves a readable file whose metadata 'status' is still 'recording'.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "store/sqlite_db.h"

namespace cuprobe {

// The columns every GPU activity table starts with.
struct RunActivityRow {
  std::int64_t pid = -1;
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t correlation = -1;
  std::int64_t graph_id = -1;
};

struct RunKernelRow : RunActivityRow {
  std::int64_t name_id = 0;
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t registers = -1;
  std::int32_t static_shared = -1;
  std::int32_t dynamic_shared = -1;
};

// A memcpy (kind set), a memset (kind empty) or a graph launch (neither).
struct RunCopyRow : RunActivityRow {
  std::string_view kind;  // a MemcpyKind name (model/kinds.h): "HtoD", ..., "unknown"
  std::int64_t bytes = -1;
};

struct RunRangeRow {
  std::int64_t pid = -1, tid = -1;
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t name_id = 0;
  std::string_view kind;  // a RangeKind name (model/kinds.h): "nvtx", "runtime", "driver"
  std::int64_t correlation = -1;
};

struct RunDeviceRow {
  std::int32_t id = -1;
  std::string name;
  std::int32_t sm_count = 0, compute_major = 0, compute_minor = 0;
  std::int64_t memory_bytes = 0;
  std::string uuid;  // "GPU-…"; empty when unknown
};

struct RunRowCounts {
  std::int64_t graph_launches = 0;
  std::int64_t kernels = 0, memcpy = 0, memset = 0, ranges = 0, samples = 0, processes = 0;
};

class RunFileWriter {
 public:
  // Creates `path` (refuses an existing file unless `overwrite`).
  RunFileWriter(const std::string& path, bool overwrite,
                std::chrono::milliseconds commit_interval = std::chrono::milliseconds(250));
  ~RunFileWriter();
  RunFileWriter(const RunFileWriter&) = delete;
  RunFileWriter& operator=(const RunFileWriter&) = delete;

  void set_metadata(std::string_view key, std::string_view value);
  // Id of a kernel/range name in the names table (`mangled` empty when same).
  std::int64_t name_id(std::string_view name, std::string_view mangled = {});

  void add_kernel(const RunKernelRow& row);
  void add_memcpy(const RunCopyRow& row);
  void add_memset(const RunCopyRow& row);
  void add_range(const RunRangeRow& row);
  // A whole CUDA graph launch (--graphs whole); kind, bytes unused.
  void add_graph_launch(const RunCopyRow& row);
  void add_sample(std::int32_t device, std::int64_t start_ns, std::int64_t end_ns, std::string_view metric,
                  double value);
  void add_device(const RunDeviceRow& row);
  void process_started(std::int64_t pid, std::int64_t ppid, std::string_view command, std::int64_t time_ns,
                       int cupti_version);
  // The process's place in a distributed job (torchrun's RANK / WORLD_SIZE).
  void process_rank(std::int64_t pid, int rank, std::optional<int> world_size);
  void process_ended(std::int64_t pid, std::int64_t time_ns, std::string_view reason,
                     std::optional<int> exit_code = std::nullopt);
  void count_loss(std::string_view source, std::int64_t pid, std::string_view reason, std::int64_t n);
  void add_notice(std::int64_t time_ns, std::int64_t pid, std::string_view source, std::string_view message);
  void add_capture(std::int64_t time_ns, std::int64_t pid, bool on, std::string_view reason);

  // Commits when the commit interval has passed since the last commit.
  void maybe_commit();
  void commit();
  // Sets metadata 'status', commits and closes the transaction for good.
  void finish(std::string_view status);

  const RunRowCounts& counts() const { return counts_; }
  std::int64_t total_losses() const;
  const std::string& path() const { return path_; }

 private:
  void begin();

  std::string path_;
  std::unique_ptr<SqliteDb> db_;
  std::chrono::milliseconds commit_interval_;
  std::chrono::steady_clock::time_point last_commit_;
  bool in_transaction_ = false;
  bool finished_ = false;
  SqliteStatement graph_;
  SqliteStatement metadata_, name_, kernel_, memcpy_, memset_, range_, metric_, sample_, device_, process_start_,
      process_rank_, process_end_, loss_, notice_, capture_;
  std::unordered_map<std::string, std::int64_t> name_ids_;
  std::unordered_map<std::string, std::int64_t> metric_ids_;
  std::map<std::tuple<std::string, std::int64_t, std::string>, std::int64_t> losses_;
  RunRowCounts counts_;
};

}  // namespace cuprobe
