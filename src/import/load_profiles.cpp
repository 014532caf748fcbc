#include "import/load_profiles.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "common/error.h"
#include "import/kineto_json/kineto_importer.h"
#include "import/rank_from_name.h"
#include "import/run_file/run_file_importer.h"

namespace cuprobe {

Profile load_profile(const std::string& path) {
  bool run_file = looks_like_run_file(path);
  Profile p = run_file ? import_run_file(path) : import_kineto_json(path);
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
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    if (!profiles[i].rank) profiles[i].rank = rank_from_file_name(paths[i]);
    if (!profiles[i].rank && profiles.size() > 1) profiles[i].rank = static_cast<int>(i);
  }
  std::stable_sort(profiles.begin(), profiles.end(),
                   [](const Profile& a, const Profile& b) { return a.rank.value_or(0) < b.rank.value_or(0); });
  return profiles;
}

}  // namespace cuprobe
