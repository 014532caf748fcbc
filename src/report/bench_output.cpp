#include "report/bench_output.h"

#include "report/analyze_json.h"
#include "report/bench_result.h"

namespace cuprobe {

nlohmann::ordered_json bench_json(const std::vector<BenchReport>& reports) {
  if (reports.size() == 1) return bench_report_json(reports.front());
  nlohmann::ordered_json doc;
  doc["schema"] = "cuprobe.bench/1";
  doc["sweep"] = nlohmann::ordered_json::array();
  for (const BenchReport& r : reports) doc["sweep"].push_back(bench_report_json(r));
  return doc;
}

std::string bench_stdout(const std::vector<BenchReport>& reports, bool json, bool csv) {
  std::string out;
  if (json) {
    out = bench_json(reports).dump(2, ' ', false, kReplaceInvalidUtf8) + "\n";
  } else if (csv) {
    out = bench_result_csv_header(reports.front().metrics.percentiles);
    for (const BenchReport& r : reports) out += bench_result_csv_row(r);
  } else {
    for (const BenchReport& r : reports) out += (out.empty() ? "" : "\n") + bench_report_text(r);
  }
  return out;
}

std::string bench_requests_jsonl(const std::vector<BenchReport>& reports) {
  std::string lines;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    for (const auto& rec : reports[i].load->records) {
      nlohmann::ordered_json j = request_record_json(rec, reports[i].load->realtime_offset_ns);
      if (reports.size() > 1) j["run"] = i;
      lines += j.dump(-1, ' ', false, kReplaceInvalidUtf8) + "\n";
    }
  }
  return lines;
}

std::string bench_saved_result(const std::vector<BenchReport>& reports, const std::string& format, std::string existing,
                               const PeerResultOptions& options) {
  const bool sweep = reports.size() > 1;
  const bool append = !existing.empty();
  std::string text = std::move(existing);
  if (append && text.back() != '\n') text += '\n';
  if (format == "cuprobe") {
    text += bench_json(reports).dump(append ? -1 : 2, ' ', false, kReplaceInvalidUtf8) + "\n";
  } else if (format == "vllm") {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      if (i > 0) text += "\n";
      text += bench_result_vllm(reports[i], options).dump(-1, ' ', false, kReplaceInvalidUtf8);
    }
    if (sweep) text += "\n";
  } else {
    for (const BenchReport& r : reports)
      text += bench_result_sglang(r, options).dump(-1, ' ', false, kReplaceInvalidUtf8) + "\n";
  }
  return text;
}

}  // namespace cuprobe
