#include "analysis/launch_context.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "analysis/track_keys.h"

namespace cuprobe {

bool is_launch_call(std::string_view name) { return name.find("Launch") != std::string_view::npos; }

bool is_graph_launch_call(std::string_view name) { return name.find("GraphLaunch") != std::string_view::npos; }

namespace {

// CUPTI names runtime and driver calls with their ABI version or per-thread-stream suffix
// (`cudaMemcpy_v3020`, `cuMemcpyDtoH_v2`, `cudaMemcpy_ptds`); the call is the name without it.
std::string_view without_version_suffix(std::string_view name) {
  for (std::string_view suffix : {"_ptds", "_ptsz"}) {
    if (name.ends_with(suffix)) name.remove_suffix(suffix.size());
  }
  std::size_t v = name.rfind("_v");
  if (v != std::string_view::npos && v + 2 < name.size() &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(v) + 2, name.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    name = name.substr(0, v);
  return name;
}

}  // namespace

bool is_synchronizing_call(std::string_view name) {
  if (name.find("Synchronize") != std::string_view::npos) return true;
  name = without_version_suffix(name);
  constexpr std::string_view kSyncCopies[] = {"cudaMemcpy", "cuMemcpyDtoH", "hipMemcpy", "hipMemcpyWithStream",
                                              "hipMemcpyDtoH"};
  for (std::string_view c : kSyncCopies) {
    if (name == c) return true;
  }
  return false;
}

void for_each_launch_with_enclosing(
    const Profile& profile, const CorrelationIndex& wanted,
    const std::function<void(const CpuRange& launch, std::span<const CpuRange* const> enclosing)>& fn) {
  if (wanted.empty()) return;
  auto encloses = [](const CpuRange& r) {
    return r.kind == CpuRangeKind::kOperator || r.kind == CpuRangeKind::kAnnotation;
  };
  const std::vector<CpuRange>& cpu = profile.cpu;
  std::vector<std::uint32_t> order;  // indices into cpu: half a pointer's size, at analyze's peak
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const CpuRange& r = cpu[i];
    bool launch = r.kind == CpuRangeKind::kRuntime && r.correlation >= 0 && wanted.contains(r.correlation);
    if (launch || encloses(r)) order.push_back(static_cast<std::uint32_t>(i));
  }
  // By start; at equal starts the enclosing (operators, then the longer) before what they enclose.
  auto before = [&](std::uint32_t i, std::uint32_t j) {
    const CpuRange& a = cpu[i];
    const CpuRange& b = cpu[j];
    if (a.start != b.start) return a.start < b.start;
    if (encloses(a) != encloses(b)) return encloses(a);
    return a.end > b.end;
  };
  auto by_start = [&](std::uint32_t i, std::uint32_t j) { return cpu[i].start < cpu[j].start; };
  if (std::is_sorted(order.begin(), order.end(), by_start)) {
    // Importers sort profile.cpu by start: only the runs of equal starts are left to order (stably).
    for (auto run = order.begin(); run != order.end();) {
      auto run_end =
          std::find_if(run + 1, order.end(), [&](std::uint32_t i) { return cpu[i].start != cpu[*run].start; });
      if (run_end - run > 16) {
        std::stable_sort(run, run_end, before);
      } else {
        for (auto i = run + 1; i < run_end; ++i) {
          for (auto j = i; j != run && before(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
        }
      }
      run = run_end;
    }
  } else {
    std::stable_sort(order.begin(), order.end(), before);
  }
  std::unordered_map<ThreadKey, std::vector<const CpuRange*>, ThreadKeyHash> open;  // per thread, outermost first
  ThreadKey thread{};
  std::vector<const CpuRange*>* stack = nullptr;  // thread's; consecutive ranges are mostly on one thread
  for (std::uint32_t i : order) {
    const CpuRange* r = &cpu[i];
    if (!stack || thread != ThreadKey{r->pid, r->tid}) {
      thread = ThreadKey{r->pid, r->tid};
      stack = &open[thread];
    }
    while (!stack->empty() && stack->back()->end < r->end) stack->pop_back();
    if (encloses(*r))
      stack->push_back(r);
    else
      fn(*r, *stack);
  }
}

namespace {

bool is_launch_range(const CpuRange& r) { return r.kind == CpuRangeKind::kRuntime && r.correlation >= 0; }

CorrelationIndex launch_correlations(const Profile& profile) {
  std::vector<std::int64_t> ids;
  for (const auto& r : profile.cpu) {
    if (is_launch_range(r)) ids.push_back(r.correlation);
  }
  return CorrelationIndex(std::move(ids));
}

}  // namespace

LaunchContext::LaunchContext(const Profile& profile)
    : profile_(profile), correlations_(launch_correlations(profile)), launches_(correlations_.size(), nullptr) {
  for (const auto& r : profile.cpu) {
    if (!is_launch_range(r)) continue;
    const CpuRange*& first = launches_[static_cast<std::size_t>(correlations_.slot(r.correlation))];
    if (!first) first = &r;
  }
}

const CpuRange* LaunchContext::launch_of(std::int64_t correlation) const {
  std::int32_t slot = correlations_.slot(correlation);
  return slot < 0 ? nullptr : launches_[static_cast<std::size_t>(slot)];
}

void LaunchContext::index_operators() const {
  operators_.assign(launches_.size(), Operators{});
  for_each_launch_with_enclosing(profile_, correlations_,
                                 [&](const CpuRange& launch, std::span<const CpuRange* const> enclosing) {
                                   auto slot = static_cast<std::size_t>(correlations_.slot(launch.correlation));
                                   if (launches_[slot] != &launch) return;  // the first call with that id only
                                   Operators& ops = operators_[slot];
                                   for (const CpuRange* r : enclosing) {  // outermost first
                                     if (r->kind != CpuRangeKind::kOperator) continue;
                                     if (!ops.outermost) ops.outermost = r;
                                     ops.innermost = r;
                                   }
                                 });
}

std::string LaunchContext::operator_path(std::int64_t correlation) const {
  std::int32_t slot = correlations_.slot(correlation);
  if (slot < 0) return {};
  std::call_once(operators_indexed_, [this] { index_operators(); });
  const Operators& ops = operators_[static_cast<std::size_t>(slot)];
  if (!ops.innermost) return {};
  std::string path(profile_.name_of(ops.innermost->name));
  if (ops.outermost != ops.innermost) path += " (in " + std::string(profile_.name_of(ops.outermost->name)) + ")";
  return path;
}

}  // namespace cuprobe
