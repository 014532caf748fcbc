#include "import/load_profiles.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <thread>

#include "common/error.h"
#include "common/usable_cpus.h"
#include "import/demangle_names.h"
#include "import/kineto_json/kineto_importer.h"
#include "import/nsys_sqlite/nsys_importer.h"
#include "import/nsys_sqlite/report_export.h"
#include "import/rank_from_name.h"
#include "import/rocprofv3_json/rocprofv3_importer.h"
#include "import/run_file/run_file_importer.h"
#include "import/split_by_process.h"
#include "import/temp_dir.h"
#include "import/trace_directory.h"
#include "import/trace_format.h"

namespace cuprobe {

namespace {

std::vector<Profile> processes(Profile whole, bool split) {
  if (split) return split_by_process(std::move(whole));
  std::vector<Profile> one;
  one.push_back(std::move(whole));
  return one;
}

// An SQLite file, by its tables: a run file or an Nsight Systems export.
std::vector<Profile> load_sqlite(const std::string& path, const std::string& shown_as, bool split) {
  const std::string& name = shown_as.empty() ? path : shown_as;
  TraceSniff sniff = sniff_sqlite(path);
  switch (sniff.format) {
    case TraceFormat::kNsysExport:
      return import_nsys_sqlite(path, shown_as);
    case TraceFormat::kRunFile:
      return processes(import_run_file(path, shown_as), split);
    case TraceFormat::kDamagedSqlite:
      throw InputError(name, "a damaged SQLite file (" + sniff.detail +
                                 "): neither a run file nor an export can be read from it; copy it again whole");
    default:
      throw InputError(name,
                       "an SQLite database, but neither a cuprobe run file (no 'metadata' table) nor an Nsight "
                       "Systems export (no 'StringIds' table)");
  }
}

// Bytes read once (a pipe, a FIFO, a compressed file): the first ones pick the reader, and SQLite bytes (which
// SQLite must open by name) are copied, decompressed, to a private file; rocprofv3 JSON goes to its reader, other
// bytes to the Kineto reader (which says what is wrong with them).
std::vector<Profile> load_stream(const std::string& path, bool split) {
  auto raw = open_byte_source(path);
  std::string head = read_up_to(*raw, kFormatHeadBytes);
  TraceFormat format = sniff_head(head);
  auto source = prepend_bytes(std::move(head), std::move(raw));
  if (format == TraceFormat::kRocprofv3Json) return processes(import_rocprofv3_json(*source, path), split);
  if (format != TraceFormat::kSqliteStream) return processes(import_kineto_json(*source, path), split);
  TempDir dir;
  std::string copy = dir.path() + "/copy.sqlite";
  copy_to_file(*source, copy, path);
  return load_sqlite(copy, path, split);
}

// A run file or Kineto trace of several processes (a torchrun recording, traces merged into one) holds one rank
// per process: split_by_process, unless the file is wanted whole. An Nsight Systems export is cut by its own rule
// (nsys_sqlite/rank_split.h).
std::vector<Profile> load_any(const std::string& path, bool split) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return load_stream(path, split);
  TraceSniff sniff = sniff_trace_format(path, kFormatHeadBytes);
  switch (sniff.format) {
    case TraceFormat::kNsysReport: {
      TempDir dir;
      return import_nsys_sqlite(export_nsys_report(path, dir.path()), path);
    }
    case TraceFormat::kRunFile:
    case TraceFormat::kNsysExport:
    case TraceFormat::kDamagedSqlite:
    case TraceFormat::kOtherSqlite:
      return load_sqlite(path, {}, split);
    case TraceFormat::kSqliteStream:
      return load_stream(path, split);
    case TraceFormat::kRocprofv3Json:
      return processes(import_rocprofv3_json(path), split);
    default:  // JSON (the Kineto reader can split a large plain file), or bytes it says what is wrong with
      return processes(import_kineto_json(path), split);
  }
}

const char* no_gpu_activity(const Profile& p) {
  if (p.source == "cuprobe-run") {
    return "the run file holds no GPU activity (did the command use the GPU? see the losses and metadata tables)";
  }
  if (p.source == "nsys") {
    return "the Nsight Systems export holds no CUDA kernels, memcpys or memsets (was it recorded with "
           "--trace=cuda?)";
  }
  if (p.source == "rocprofv3")
    return "the rocprofv3 output has no kernel dispatches or memory copies (was it recorded with --kernel-trace?)";
  return "the trace has no GPU activity (kernels, memcpy, memset): was it recorded with ProfilerActivity.CUDA?";
}

struct Input {
  std::string path;
  const TraceDirectory* dir = nullptr;  // the directory it was found in, if any
};

std::vector<Profile> load_checked(const std::string& path, bool split) {
  std::vector<Profile> profiles = load_any(path, split);
  for (Profile& p : profiles) demangle_kernel_names(p);  // the one place every input's kernel names pass
  if (profiles.size() == 1 && profiles.front().gpu.empty()) throw InputError(path, no_gpu_activity(profiles.front()));
  return profiles;
}

}  // namespace

std::vector<Profile> load_trace_file(const std::string& path) { return load_checked(path, true); }

Profile load_profile(const std::string& path) {
  std::vector<Profile> profiles = load_checked(path, false);
  if (profiles.size() != 1) {
    throw InputError(path, "an Nsight Systems export of " + std::to_string(profiles.size()) +
                               " ranks (processes and GPUs): give it to 'cuprobe analyze', or export one process");
  }
  return std::move(profiles.front());
}

std::vector<Profile> load_profiles(const std::vector<std::string>& paths) {
  std::vector<std::size_t> slots;
  return load_profiles(paths, {}, slots);
}

std::vector<Profile> load_profiles(const std::vector<std::string>& paths, const ProfileReducer& reduce,
                                   std::vector<std::size_t>& slots) {
  std::vector<TraceDirectory> dirs;
  dirs.reserve(paths.size());
  std::vector<Input> inputs;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      inputs.push_back({path});
      continue;
    }
    const TraceDirectory& dir = dirs.emplace_back(list_trace_directory(path));
    if (dir.traces.empty()) {
      throw InputError(path, dir.skipped.empty()
                                 ? "no trace files in the directory (it is empty)"
                                 : "no trace files in the directory (" + std::to_string(dir.skipped.size()) +
                                       " other files, first: " + dir.skipped.front() + ")");
    }
    for (const auto& trace : dir.traces) inputs.push_back({trace, &dir});
  }

  std::vector<std::vector<Profile>> loaded(inputs.size());
  std::vector<std::vector<std::size_t>> loaded_slots(inputs.size());
  std::vector<std::exception_ptr> errors(inputs.size());
  std::atomic<std::size_t> next{0}, next_slot{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++) {
      try {
        loaded[i] = load_trace_file(inputs[i].path);
        for (Profile& p : loaded[i]) {
          loaded_slots[i].push_back(next_slot++);
          if (reduce) reduce(p, loaded_slots[i].back());
        }
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  // One file per CPU this process may run on at a time: the Profiles held at once (taskset -c 0 reads one at a time).
  std::size_t threads = std::min<std::size_t>(inputs.size(), usable_cpus());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }

  std::vector<Profile> profiles;
  std::vector<std::size_t> slot_of;
  std::vector<const TraceDirectory*> counted;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const TraceDirectory* dir = inputs[i].dir;
    slot_of.insert(slot_of.end(), loaded_slots[i].begin(), loaded_slots[i].end());
    for (Profile& p : loaded[i]) {
      if (dir && !dir->skipped.empty() && std::find(counted.begin(), counted.end(), dir) == counted.end()) {
        counted.push_back(dir);
        p.stats.add(ImportStat::kNotATraceFile, dir->skipped.front(), {},
                    static_cast<std::int64_t>(dir->skipped.size()));
      }
      if (!p.rank) p.rank = rank_from_file_name(inputs[i].path);
      profiles.push_back(std::move(p));
    }
  }
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    if (!profiles[i].rank && profiles.size() > 1) profiles[i].rank = static_cast<int>(i);
  }
  // Two files of one rank: each is told about the first other file that claims it.
  std::map<int, std::vector<std::size_t>> by_rank;
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i].rank) by_rank[*profiles[i].rank].push_back(i);
  }
  for (const auto& [rank, files] : by_rank) {
    for (std::size_t k = 0; files.size() > 1 && k < files.size(); ++k) {
      const Profile& other = profiles[files[k == 0 ? 1 : 0]];
      profiles[files[k]].stats.add(ImportStat::kDuplicateRank,
                                   "rank " + std::to_string(rank) + " is claimed by " + other.file + " too");
    }
  }
  std::vector<std::size_t> order(profiles.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return profiles[a].rank.value_or(0) < profiles[b].rank.value_or(0);
  });
  std::vector<Profile> sorted;
  sorted.reserve(profiles.size());
  slots.clear();
  for (std::size_t i : order) {
    sorted.push_back(std::move(profiles[i]));
    slots.push_back(slot_of[i]);
  }
  return sorted;
}

std::vector<std::string> profile_files(const std::vector<Profile>& profiles) {
  std::vector<std::string> files;
  for (const Profile& p : profiles) {
    if (std::find(files.begin(), files.end(), p.file) == files.end()) files.push_back(p.file);
  }
  return files;
}

}  // namespace cuprobe
