#include "import/load_profiles.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <thread>

#include "common/error.h"
#include "import/kineto_json/kineto_importer.h"
#include "import/rank_from_name.h"
#include "import/run_file/run_file_importer.h"
#include "import/split_by_process.h"
#include "import/temp_dir.h"

namespace cuprobe {

namespace {

// A pipe or FIFO can be read only once: its first bytes pick the reader, and a
// run file (which SQLite must open by name) is copied to a temporary file.
Profile load_stream(const std::string& path, bool& run_file) {
  std::string head;
  auto source = open_byte_source(path, &head);
  run_file = is_run_file_header(head);
  if (!run_file) return import_kineto_json(*source, path);
  TempDir dir;
  std::string copy = dir.path() + "/run.cuprobe";
  copy_to_file(*source, copy, path);
  return import_run_file(copy, path);
}

}  // namespace

Profile load_profile(const std::string& path) {
  std::error_code ec;
  bool run_file = false;
  Profile p;
  if (std::filesystem::is_regular_file(path, ec)) {
    run_file = looks_like_run_file(path);
    p = run_file ? import_run_file(path) : import_kineto_json(path);
  } else {
    p = load_stream(path, run_file);
  }
  if (p.gpu.empty()) {
    throw InputError(path, run_file ? "the run file holds no GPU activity (did the command use the GPU? see the "
                                      "losses and metadata tables)"
                                    : "the trace has no GPU activity (kernels, memcpy, memset): was it recorded "
                                      "with ProfilerActivity.CUDA?");
  }
  return p;
}

std::vector<Profile> load_profiles(const std::vector<std::string>& paths) {
  std::vector<Profile> profiles(paths.size());
  std::vector<std::exception_ptr> errors(paths.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < paths.size(); i = next++) {
      try {
        profiles[i] = load_profile(paths[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::size_t threads = std::min<std::size_t>(paths.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  std::vector<std::string> loaded_from;  // each profile's path, after one file became several ranks
  {
    std::vector<Profile> ranks;
    for (std::size_t i = 0; i < profiles.size(); ++i) {
      for (Profile& part : split_by_process(std::move(profiles[i]))) {
        ranks.push_back(std::move(part));
        loaded_from.push_back(paths[i]);
      }
    }
    profiles = std::move(ranks);
  }
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    if (!profiles[i].rank) profiles[i].rank = rank_from_file_name(loaded_from[i]);
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
  std::stable_sort(profiles.begin(), profiles.end(),
                   [](const Profile& a, const Profile& b) { return a.rank.value_or(0) < b.rank.value_or(0); });
  return profiles;
}

}  // namespace cuprobe
