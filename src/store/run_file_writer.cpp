#include "store/run_file_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "common/errno_text.h"
#include "common/error.h"
#include "store/run_file_schema.h"

namespace cuprobe {
namespace {

// Columns 1-5 of every GPU activity table: pid, device, stream, start_ns, end_ns.
SqliteStatement& bind_activity(SqliteStatement& s, const RunActivityRow& r) {
  return s.bind(1, r.pid).bind(2, std::int64_t{r.device}).bind(3, r.stream).bind(4, r.start_ns).bind(5, r.end_ns);
}

}  // namespace

RunFileWriter::RunFileWriter(const std::string& path, bool overwrite, std::chrono::milliseconds commit_interval)
    : path_(path), commit_interval_(commit_interval) {
  // The file is made here, new (never through a link planted at its name), and SQLite then opens it.
  if (overwrite && ::unlink(path.c_str()) != 0 && errno != ENOENT) {
    throw Error(path + ": cannot replace: " + errno_text(errno));
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EEXIST) throw Error(path + ": already exists (use --force to replace it)");
  if (fd < 0) {
    int err = errno;
    std::string dir = std::filesystem::path(path).parent_path().string();
    std::error_code ec;
    if (err == ENOENT && !dir.empty() && !std::filesystem::is_directory(dir, ec)) {
      throw Error(path + ": cannot create: directory " + dir + " does not exist");
    }
    throw Error(path + ": cannot create: " + errno_text(err));
  }
  ::close(fd);
  std::error_code ec;
  std::filesystem::remove(path + "-journal", ec);
  db_ = std::make_unique<SqliteDb>(path, SqliteDb::Mode::kCreate);
  // A crash of this process (not of the OS) cannot corrupt the file with the
  // rollback journal, whatever the sync setting; syncs would only cost time.
  db_->exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF;");
  db_->exec("BEGIN");
  db_->exec(kRunFileSchema);
  metadata_ = db_->prepare("INSERT OR REPLACE INTO metadata(key, value) VALUES(?1, ?2)");
  name_ = db_->prepare("INSERT INTO names(id, name, mangled) VALUES(?1, ?2, ?3)");
  kernel_ = db_->prepare("INSERT INTO kernels VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)");
  memcpy_ = db_->prepare("INSERT INTO memcpy VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
  memset_ = db_->prepare("INSERT INTO memset VALUES(?1,?2,?3,?4,?5,?6,?7,?8)");
  graph_ = db_->prepare("INSERT INTO graph_launches VALUES(?1,?2,?3,?4,?5,?6,?7)");
  range_ = db_->prepare("INSERT INTO ranges VALUES(?1,?2,?3,?4,?5,?6,?7)");
  metric_ = db_->prepare("INSERT INTO metrics(id, name) VALUES(?1, ?2)");
  sample_ = db_->prepare("INSERT INTO samples VALUES(?1,?2,?3,?4,?5)");
  device_ = db_->prepare("INSERT OR REPLACE INTO devices VALUES(?1,?2,?3,?4,?5,?6,?7)");
  process_start_ = db_->prepare(
      "INSERT OR REPLACE INTO processes(pid, ppid, command, connected_ns, cupti_version) "
      "VALUES(?1,?2,?3,?4,?5)");
  process_rank_ = db_->prepare("UPDATE processes SET rank = ?2, world_size = ?3 WHERE pid = ?1");
  process_end_ = db_->prepare("UPDATE processes SET ended_ns = ?2, end_reason = ?3, exit_code = ?4 WHERE pid = ?1");
  loss_ = db_->prepare("INSERT OR REPLACE INTO losses VALUES(?1,?2,?3,?4)");
  notice_ = db_->prepare("INSERT INTO notices VALUES(?1,?2,?3,?4)");
  capture_ = db_->prepare("INSERT INTO captures VALUES(?1,?2,?3,?4)");
  set_metadata("format", kRunFileFormat);
  set_metadata("format_version", std::to_string(kRunFileFormatVersion));
  set_metadata("status", kRunStatusRecording);
  set_metadata("clock", "CLOCK_REALTIME ns");
  db_->exec("COMMIT");
  begin();
}

RunFileWriter::~RunFileWriter() {
  // An unfinished writer still commits what it has; status stays 'recording'.
  if (!finished_ && in_transaction_) {
    try {
      commit();
    } catch (...) {
    }
  }
}

void RunFileWriter::begin() {
  db_->exec("BEGIN");
  in_transaction_ = true;
  last_commit_ = std::chrono::steady_clock::now();
}

void RunFileWriter::set_metadata(std::string_view key, std::string_view value) {
  metadata_.bind(1, key).bind(2, value).run();
}

std::int64_t RunFileWriter::name_id(std::string_view name, std::string_view mangled) {
  std::string key(name);
  if (!mangled.empty() && mangled != name) key.append(1, '\0').append(mangled);
  auto it = name_ids_.find(key);
  if (it != name_ids_.end()) return it->second;
  auto id = static_cast<std::int64_t>(name_ids_.size()) + 1;
  name_.bind(1, id).bind(2, name);
  if (mangled.empty() || mangled == name)
    name_.bind_null(3);
  else
    name_.bind(3, mangled);
  name_.run();
  name_ids_.emplace(std::move(key), id);
  return id;
}

void RunFileWriter::add_kernel(const RunKernelRow& r) {
  bind_activity(kernel_, r).bind(6, r.name_id);
  for (int i = 0; i < 3; ++i) {
    kernel_.bind(7 + i, std::int64_t{r.grid[i]});
    kernel_.bind(10 + i, std::int64_t{r.block[i]});
  }
  kernel_.bind(13, std::int64_t{r.registers}).bind(14, std::int64_t{r.static_shared});
  kernel_.bind(15, std::int64_t{r.dynamic_shared}).bind(16, r.correlation).bind(17, r.graph_id);
  kernel_.run();
  ++counts_.kernels;
}

void RunFileWriter::add_memcpy(const RunCopyRow& r) {
  bind_activity(memcpy_, r).bind(6, r.kind).bind(7, r.bytes).bind(8, r.correlation).bind(9, r.graph_id).run();
  ++counts_.memcpy;
}

void RunFileWriter::add_memset(const RunCopyRow& r) {
  bind_activity(memset_, r).bind(6, r.bytes).bind(7, r.correlation).bind(8, r.graph_id).run();
  ++counts_.memset;
}

void RunFileWriter::add_graph_launch(const RunCopyRow& r) {
  bind_activity(graph_, r).bind(6, r.graph_id).bind(7, r.correlation).run();
  ++counts_.graph_launches;
}

void RunFileWriter::add_range(const RunRangeRow& r) {
  range_.bind(1, r.pid).bind(2, r.tid).bind(3, r.start_ns).bind(4, r.end_ns).bind(5, r.name_id);
  range_.bind(6, r.kind).bind(7, r.correlation).run();
  ++counts_.ranges;
}

void RunFileWriter::add_sample(std::int32_t device, std::int64_t start_ns, std::int64_t end_ns, std::string_view metric,
                               double value) {
  std::string key(metric);
  auto it = metric_ids_.find(key);
  if (it == metric_ids_.end()) {
    auto id = static_cast<std::int64_t>(metric_ids_.size()) + 1;
    metric_.bind(1, id).bind(2, metric).run();
    it = metric_ids_.emplace(std::move(key), id).first;
  }
  sample_.bind(1, std::int64_t{device}).bind(2, start_ns).bind(3, end_ns).bind(4, it->second).bind(5, value).run();
  ++counts_.samples;
}

void RunFileWriter::add_device(const RunDeviceRow& r) {
  device_.bind(1, std::int64_t{r.id}).bind(2, r.name).bind(3, std::int64_t{r.sm_count});
  device_.bind(4, std::int64_t{r.compute_major}).bind(5, std::int64_t{r.compute_minor}).bind(6, r.memory_bytes);
  if (r.uuid.empty())
    device_.bind_null(7);
  else
    device_.bind(7, r.uuid);
  device_.run();
}

void RunFileWriter::process_started(std::int64_t pid, std::int64_t ppid, std::string_view command, std::int64_t time_ns,
                                    int cupti_version) {
  process_start_.bind(1, pid).bind(2, ppid).bind(3, command).bind(4, time_ns);
  process_start_.bind(5, std::int64_t{cupti_version}).run();
  // The recorder registers the command it started, and the injected library in it says hello again.
  if (pids_.insert(pid).second) ++counts_.processes;
}

void RunFileWriter::process_rank(std::int64_t pid, int rank, std::optional<int> world_size) {
  process_rank_.bind(1, pid).bind(2, std::int64_t{rank});
  if (world_size)
    process_rank_.bind(3, std::int64_t{*world_size});
  else
    process_rank_.bind_null(3);
  process_rank_.run();
}

void RunFileWriter::process_ended(std::int64_t pid, std::int64_t time_ns, std::string_view reason,
                                  std::optional<int> exit_code) {
  process_end_.bind(1, pid).bind(2, time_ns).bind(3, reason);
  if (exit_code)
    process_end_.bind(4, std::int64_t{*exit_code});
  else
    process_end_.bind_null(4);
  process_end_.run();
}

void RunFileWriter::count_loss(std::string_view source, std::int64_t pid, std::string_view reason, std::int64_t n) {
  if (n <= 0) return;
  auto& total = losses_[{std::string(source), pid, std::string(reason)}];
  total += n;
  loss_.bind(1, source).bind(2, pid).bind(3, reason).bind(4, total).run();
}

std::int64_t RunFileWriter::total_losses() const {
  std::int64_t total = 0;
  for (const auto& [key, n] : losses_) total += n;
  return total;
}

void RunFileWriter::add_notice(std::int64_t time_ns, std::int64_t pid, std::string_view source,
                               std::string_view message) {
  notice_.bind(1, time_ns).bind(2, pid).bind(3, source).bind(4, message).run();
}

void RunFileWriter::add_capture(std::int64_t time_ns, std::int64_t pid, bool on, std::string_view reason) {
  capture_.bind(1, time_ns).bind(2, pid).bind(3, std::string_view(on ? "on" : "off")).bind(4, reason).run();
}

void RunFileWriter::maybe_commit() {
  if (std::chrono::steady_clock::now() - last_commit_ >= commit_interval_) commit();
}

void RunFileWriter::commit() {
  if (finished_) return;
  if (in_transaction_) {
    db_->exec("COMMIT");
    in_transaction_ = false;
  }
  begin();
}

void RunFileWriter::finish(std::string_view status) {
  if (finished_) return;
  set_metadata("status", status);
  if (in_transaction_) db_->exec("COMMIT");
  in_transaction_ = false;
  db_->exec("CREATE INDEX kernels_by_start ON kernels(start_ns)");
  finished_ = true;
}

}  // namespace cuprobe
