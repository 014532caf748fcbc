#include "analysis/op_calls.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/correlation_index.h"
#include "analysis/launch_context.h"
#include "analysis/track_keys.h"

namespace cuprobe {

std::string_view op_base_name(std::string_view op) {
  std::size_t at = op.rfind("::");
  return at == std::string_view::npos ? op : op.substr(at + 2);
}

std::vector<OpCall> operator_calls(const Profile& profile) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < profile.cpu.size(); ++i) {
    if (profile.cpu[i].kind == CpuRangeKind::kOperator) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const CpuRange& x = profile.cpu[a];
    const CpuRange& y = profile.cpu[b];
    return x.start != y.start ? x.start < y.start : x.end > y.end;
  });
  std::vector<OpCall> calls;
  calls.reserve(order.size());
  std::vector<std::int32_t> call_of_range(profile.cpu.size(), -1);
  std::unordered_map<ThreadKey, std::vector<const CpuRange*>, ThreadKeyHash> open;
  for (std::size_t i : order) {
    const CpuRange& r = profile.cpu[i];
    auto& stack = open[ThreadKey{r.pid, r.tid}];
    while (!stack.empty() && stack.back()->end < r.end) stack.pop_back();
    OpCall c;
    c.range = i;
    c.name = profile.name_of(r.name);
    if (r.inputs >= 0 && static_cast<std::size_t>(r.inputs) < profile.op_inputs.size())
      c.inputs = &profile.op_inputs[static_cast<std::size_t>(r.inputs)];
    c.depth = static_cast<int>(stack.size());
    c.pid = r.pid;
    c.tid = r.tid;
    call_of_range[i] = static_cast<std::int32_t>(calls.size());
    calls.push_back(std::move(c));
    stack.push_back(&r);
  }
  // GPU activities by the correlation of their launch.
  std::vector<std::int64_t> ids;
  for (const auto& a : profile.gpu) {
    if (a.correlation >= 0) ids.push_back(a.correlation);
  }
  const CorrelationIndex wanted(std::move(ids));
  // The activities of each slot, in one array (slot s's from first[s] to first[s + 1]): one vector per slot cost
  // an allocation per GPU activity, tens of MiB at the peak of a large trace.
  std::vector<std::size_t> first(wanted.size() + 1, 0), by_slot;
  for (const auto& a : profile.gpu) {
    std::int32_t slot = wanted.slot(a.correlation);
    if (slot >= 0) ++first[static_cast<std::size_t>(slot) + 1];
  }
  for (std::size_t s = 1; s < first.size(); ++s) first[s] += first[s - 1];
  by_slot.resize(first.back());
  std::vector<std::size_t> filled(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    std::int32_t slot = wanted.slot(profile.gpu[i].correlation);
    if (slot >= 0) by_slot[filled[static_cast<std::size_t>(slot)]++] = i;
  }
  std::vector<char> seen(wanted.size(), 0);
  for_each_launch_with_enclosing(profile, wanted, [&](const CpuRange& launch, std::span<const CpuRange* const> enc) {
    auto slot = static_cast<std::size_t>(wanted.slot(launch.correlation));
    if (seen[slot]) return;
    seen[slot] = 1;
    for (const CpuRange* r : enc) {
      if (r->kind != CpuRangeKind::kOperator) continue;
      std::int32_t call = call_of_range[static_cast<std::size_t>(r - profile.cpu.data())];
      if (call < 0) continue;
      auto& acts = calls[static_cast<std::size_t>(call)].activities;
      acts.insert(acts.end(), by_slot.begin() + static_cast<std::ptrdiff_t>(first[slot]),
                  by_slot.begin() + static_cast<std::ptrdiff_t>(first[slot + 1]));
    }
  });
  return calls;
}

std::vector<const OpCall*> top_level_calls(const std::vector<OpCall>& calls) {
  std::vector<const OpCall*> out;
  for (const auto& c : calls) {
    if (c.depth == 0) out.push_back(&c);
  }
  return out;
}

const std::vector<std::int64_t>& op_arg_dims(const OpCall& call, std::size_t i) {
  static const std::vector<std::int64_t> kNone;
  if (!call.inputs || i >= call.inputs->args.size()) return kNone;
  return call.inputs->args[i].dims;
}

std::string_view op_arg_type(const OpCall& call, std::size_t i) {
  if (!call.inputs || i >= call.inputs->args.size()) return {};
  return call.inputs->args[i].type;
}

}  // namespace cuprobe
