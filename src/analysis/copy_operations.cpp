#include "analysis/copy_operations.h"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>
#include <unordered_map>

#include "analysis/correlation_index.h"
#include "analysis/launch_context.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool has(std::string_view name, std::string_view part) { return name.find(part) != std::string_view::npos; }

constexpr std::string_view kRmsNorm = "RMSNorm's fp32 round trip";

// The operation a copy kernel's name says, "" when it says none.
std::string_view operation_of_kernel(std::string_view name) {
  if (has(name, "CatArrayBatchedCopy")) return "cat";
  if (has(name, "indexFunc") || has(name, "index_copy")) return "index_copy_/index_add_";
  if (has(name, "index_elementwise_kernel") || has(name, "indexing_backward")) return "indexing (x[i], index_put_)";
  if (has(name, "indexSelect")) return "index_select";
  if (has(name, "gather")) return "gather";
  if (has(name, "transpose")) return "transpose";
  if (has(name, "copy_kernel")) return "dtype cast or copy (.to, .copy_, .contiguous)";
  return "";
}

}  // namespace

std::vector<CopyOperation> copy_cast_operations(const Profile& profile, const std::vector<KernelClass>& classes,
                                                const StepAssignment& steps) {
  // Kernels per stream in start order, for the neighbours.
  std::map<std::pair<std::int32_t, std::int64_t>, std::vector<std::size_t>> streams;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (profile.gpu[i].kind == GpuActivityKind::kKernel)
      streams[{profile.gpu[i].device, profile.gpu[i].stream}].push_back(i);
  }
  auto counted = [&](std::size_t i) { return steps.summary.steps.empty() || steps.activity_step[i] >= 0; };
  // The outermost operator around each copy's launch, in one pass over the CPU ranges.
  std::vector<std::int64_t> wanted;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (classes[i].category == Category::kCopyCast && counted(i) && profile.gpu[i].correlation >= 0)
      wanted.push_back(profile.gpu[i].correlation);
  }
  std::unordered_map<std::int64_t, StringId> operator_of;
  for_each_launch_with_enclosing(profile, CorrelationIndex(std::move(wanted)),
                                 [&](const CpuRange& launch, std::span<const CpuRange* const> enclosing) {
                                   for (const CpuRange* r : enclosing) {
                                     if (r->kind != CpuRangeKind::kOperator) continue;
                                     operator_of.emplace(launch.correlation, r->name);
                                     return;
                                   }
                                 });
  std::map<std::string, double> by_operation;
  double total = 0;
  for (const auto& stream_order : streams) {
    const auto& order = stream_order.second;  // a named variable: clang 14 cannot capture a structured binding
    auto near = [&](std::size_t at, int from, int to, std::initializer_list<std::string_view> parts) {
      for (int d = from; d <= to; ++d) {
        if (d == 0) continue;
        auto k = static_cast<std::ptrdiff_t>(at) + d;
        if (k < 0 || k >= static_cast<std::ptrdiff_t>(order.size())) continue;
        std::string_view n = profile.name_of(profile.gpu[order[static_cast<std::size_t>(k)]].name);
        for (std::string_view part : parts) {
          if (has(n, part)) return true;
        }
      }
      return false;
    };
    for (std::size_t at = 0; at < order.size(); ++at) {
      std::size_t i = order[at];
      if (classes[i].category != Category::kCopyCast || !counted(i)) continue;
      std::string_view name = profile.name_of(profile.gpu[i].name);
      std::string operation;
      bool cast = has(name, "copy_kernel");
      if (cast && (near(at, 1, 2, {"pow_tensor_scalar", "MeanOps"}) || near(at, -3, -1, {"rsqrt"}))) {
        operation = kRmsNorm;
      } else if (auto op = operator_of.find(profile.gpu[i].correlation); op != operator_of.end()) {
        operation = profile.name_of(op->second);
      } else if (std::string_view k = operation_of_kernel(name); !k.empty()) {
        operation = k;
      } else {
        operation = classes[i].rule.empty() ? std::string("other copies") : std::string(classes[i].rule);
      }
      double t = static_cast<double>(profile.gpu[i].duration()) / 1e6;
      by_operation[operation] += t;
      total += t;
    }
  }
  // Copies and memsets outside kernels (memcpy activities) are not operations of the model's code: left out above.
  std::vector<CopyOperation> out;
  for (const auto& [operation, ms] : by_operation) out.push_back({operation, ms, total > 0 ? ms / total : 0.0});
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.time_ms > b.time_ms; });
  return out;
}

std::string copy_operations_text(const std::vector<CopyOperation>& operations, std::size_t n) {
  std::string out;
  for (std::size_t k = 0; k < operations.size() && k < n; ++k) {
    if (!out.empty()) out += ", ";
    out += operations[k].operation + " " + format_percent(operations[k].share);
  }
  return out;
}

}  // namespace cuprobe
