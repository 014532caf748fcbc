#include "model/import_stats.h"

#include "common/utf8.h"
#include "model/time_range.h"

namespace cuprobe {
namespace {

constexpr ImportStatInfo kInfos[] = {
#define CUPROBE_STAT_INFO(name, id, severity, description) {id, StatSeverity::severity, description},
    CUPROBE_IMPORT_STATS(CUPROBE_STAT_INFO)
#undef CUPROBE_STAT_INFO
};
static_assert(std::size(kInfos) == kImportStatCount);

constexpr std::size_t kMaxExample = 200;

}  // namespace

const ImportStatInfo& import_stat_info(ImportStat stat) { return kInfos[static_cast<std::size_t>(stat)]; }

const char* severity_name(StatSeverity severity) {
  switch (severity) {
    case StatSeverity::kInfo:
      return "info";
    case StatSeverity::kDataLoss:
      return "data_loss";
    case StatSeverity::kError:
      return "error";
  }
  return "error";
}

void ImportStats::add(ImportStat stat, std::string_view example, std::optional<std::uint64_t> offset, std::int64_t n) {
  if (n <= 0) return;
  counted_any_ = true;
  auto& c = counts_[static_cast<std::size_t>(stat)];
  if (c.count == 0) {
    c.example = printable_one_line(example, kMaxExample);
    c.offset = offset;
  }
  c.count = saturating_add(c.count, n);
}

void ImportStats::merge(const ImportStats& later) {
  events = saturating_add(events, later.events);
  for (std::size_t i = 0; i < kImportStatCount; ++i) {
    const auto& c = later.counts_[i];
    if (c.count == 0) continue;
    counted_any_ = true;
    auto& mine = counts_[i];
    if (mine.count == 0) {
      mine.example = c.example;
      mine.offset = c.offset;
    }
    mine.count = saturating_add(mine.count, c.count);
  }
}

std::int64_t ImportStats::problems() const {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < kImportStatCount; ++i) {
    if (kInfos[i].severity != StatSeverity::kInfo) total = saturating_add(total, counts_[i].count);
  }
  return total;
}

std::vector<ImportStatLine> ImportStats::counted() const {
  std::vector<ImportStatLine> lines;
  for (std::size_t i = 0; i < kImportStatCount; ++i) {
    if (counts_[i].count > 0) lines.push_back({static_cast<ImportStat>(i), &kInfos[i], &counts_[i]});
  }
  return lines;
}

std::string ImportStatLine::text() const {
  std::string out = std::to_string(value->count) + " " + info->description + " [" + info->id + "]";
  if (!value->example.empty() || value->offset) {
    out += " (first: ";
    out += value->example.empty() ? std::string("at") : value->example;
    if (value->offset) out += (value->example.empty() ? " byte " : ", byte ") + std::to_string(*value->offset);
    out += ")";
  }
  return out;
}

}  // namespace cuprobe
