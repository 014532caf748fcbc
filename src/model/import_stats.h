// What an importer counted instead of failing: a declared table of stats
// (after Perfetto's stats.h), each with a stable id, a severity and a
// description, plus its count and the first example (with its byte offset
// where known). Arguments such as a pid go in the example, never in the id.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuprobe {

// info: worth knowing, nothing lost. data_loss: input dropped or changed.
// error: the input breaks its format's rules (read anyway, tolerantly).
enum class StatSeverity : std::uint8_t { kInfo, kDataLoss, kError };

#define CUPROBE_IMPORT_STATS(X)                                                                                       \
  X(kNotCompleteEvent, "event_not_complete", kDataLoss,                                                               \
    "events of a used category that are not complete ('X') events (ignored)")                                         \
  X(kNegativeDuration, "negative_duration", kDataLoss, "events with a negative duration (dropped)")                   \
  X(kZeroDurationGpu, "zero_duration_gpu_activity", kInfo, "GPU activities with zero duration")                       \
  X(kNoCorrelation, "gpu_activity_without_correlation", kInfo, "GPU activities without a correlation id")             \
  X(kInvalidUtf8, "invalid_utf8", kError, "names or texts with invalid UTF-8 (invalid bytes shown as U+FFFD)")        \
  X(kArgsNotObject, "args_not_object", kError, "events whose \"args\" is not an object (ignored)")                    \
  X(kTimeOutOfRange, "time_out_of_range", kDataLoss,                                                                  \
    "events whose time is out of range (beyond +/-146 years or overflowing; dropped)")                                \
  X(kValueOutOfRange, "value_out_of_range", kDataLoss, "values out of range for their field (ignored)")               \
  X(kNumberAsString, "number_as_string", kError, "numbers written as strings (read as numbers)")                      \
  X(kFieldMistyped, "field_mistyped", kError, "optional fields of an unexpected type (ignored)")                      \
  X(kEventMissingField, "event_missing_field", kDataLoss, "events without a field cuprobe needs (skipped)")           \
  X(kUnknownNameId, "unknown_name_id", kDataLoss, "name ids missing from the names table (shown as <unknown>)")       \
  X(kReversedInterval, "interval_reversed", kDataLoss, "intervals ending before they start (end set to start)")       \
  X(kUnknownMetricId, "unknown_metric_id", kDataLoss, "counter samples with an unknown metric id (dropped)")          \
  X(kWrongValueType, "wrong_value_type", kDataLoss,                                                                   \
    "rows with text or a fraction where an integer is expected (skipped)")                                            \
  X(kLostRecords, "records_lost", kDataLoss, "records lost while recording")                                          \
  X(kRecorderNotice, "recorder_notice", kDataLoss, "notices from the recorder")                                       \
  X(kProcessNotExited, "process_not_exited", kDataLoss, "recorded processes that did not exit normally")              \
  X(kRecordingUnfinished, "recording_unfinished", kDataLoss, "recording did not finish")                              \
  X(kUnmatchedBegin, "begin_without_end", kDataLoss, "'B' events without a matching 'E' on their thread (dropped)")   \
  X(kUnmatchedEnd, "end_without_begin", kDataLoss, "'E' events without an open 'B' on their thread (ignored)")        \
  X(kCorrelationPerProcess, "correlation_ids_per_process", kInfo,                                                     \
    "correlation ids used by several processes (each GPU activity linked within its device's process)")               \
  X(kGpuProcessUnknown, "gpu_process_unknown", kDataLoss,                                                             \
    "GPU activities of a file with several processes whose launching process is unknown (in no rank)")                \
  X(kGpuProcessByOrder, "gpu_process_by_order", kDataLoss,                                                            \
    "GPUs whose process no launch tells apart (every id shared), paired with processes in order of device and pid")   \
  X(kOpShapeMalformed, "op_shape_malformed", kInfo,                                                                   \
    "operator shape arguments (Input Dims/type/Strides, Concrete Inputs) not understood (that operator's work is "    \
    "not computed)")                                                                                                  \
  X(kColumnMissing, "column_missing", kInfo,                                                                          \
    "optional columns absent from the export (their values unknown; nsys versions differ)")                           \
  X(kNotATraceFile, "file_not_a_trace", kInfo, "files in a directory given that are not traces (skipped)")            \
  X(kDuplicateRank, "duplicate_rank", kError, "files claiming a rank another file claims too")                        \
  X(kJournalBeside, "journal_not_replayed", kInfo,                                                                    \
    "a -journal lies beside the run file (cuprobe killed mid-commit): read from a rolled-back copy, file left as it " \
    "is")

enum class ImportStat : std::uint8_t {
#define CUPROBE_STAT_ENUM(name, id, severity, description) name,
  CUPROBE_IMPORT_STATS(CUPROBE_STAT_ENUM)
#undef CUPROBE_STAT_ENUM
};

struct ImportStatInfo {
  const char* id;
  StatSeverity severity;
  const char* description;
};

inline constexpr std::size_t kImportStatCount = 0
#define CUPROBE_STAT_COUNT(name, id, severity, description) +1
    CUPROBE_IMPORT_STATS(CUPROBE_STAT_COUNT)
#undef CUPROBE_STAT_COUNT
    ;

const ImportStatInfo& import_stat_info(ImportStat stat);
const char* severity_name(StatSeverity severity);  // "info", "data_loss", "error"

struct ImportStatCount {
  std::int64_t count = 0;
  std::string example;                  // the first one, its bytes repaired to UTF-8
  std::optional<std::uint64_t> offset;  // byte offset of the first one, when known
};

// One counted stat, for reports.
struct ImportStatLine {
  ImportStat stat;
  const ImportStatInfo* info;
  const ImportStatCount* value;
  std::string text() const;  // "N DESCRIPTION (first: EXAMPLE, byte OFFSET)"
};

class ImportStats {
 public:
  std::int64_t events = 0;  // events read

  // Counts n more (saturating); the first example is kept.
  void add(ImportStat stat, std::string_view example = {}, std::optional<std::uint64_t> offset = {},
           std::int64_t n = 1);
  // Adds another part's counts; this one's examples come first.
  void merge(const ImportStats& later);
  const ImportStatCount& get(ImportStat stat) const { return counts_[static_cast<std::size_t>(stat)]; }
  std::int64_t count(ImportStat stat) const { return get(stat).count; }
  // Counted data_loss and error stats: what --strict refuses.
  std::int64_t problems() const;
  bool empty() const { return !counted_any_; }  // nothing counted (events aside)
  std::vector<ImportStatLine> counted() const;  // in declaration order

 private:
  std::array<ImportStatCount, kImportStatCount> counts_{};
  bool counted_any_ = false;
};

}  // namespace cuprobe
