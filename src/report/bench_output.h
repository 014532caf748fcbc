// What `cuprobe bench` prints and saves, for one run or a --rate sweep (one
// report per run): stdout (text, --json or --csv), --save-requests lines and
// the --save-result file in cuprobe's, vLLM's or SGLang's shape.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/bench_report.h"
#include "report/bench_result.h"

namespace cuprobe {

// One run's report; a sweep's is {"schema": "cuprobe.bench/1", "sweep": [report...]}.
nlohmann::ordered_json bench_json(const std::vector<BenchReport>& reports);

std::string bench_stdout(const std::vector<BenchReport>& reports, bool json, bool csv);

// One JSON line per request; a sweep's lines name their run ("run": index).
std::string bench_requests_jsonl(const std::vector<BenchReport>& reports);

// `format`: cuprobe, vllm (a sweep writes one object per line, as vLLM's
// --append-result) or sglang (one line per run). `existing`: the file's text where
// the result is appended (SGLang always appends; vLLM's --append-result adds each
// object on a new line, as vLLM); an appended cuprobe report is one compact line.
std::string bench_saved_result(const std::vector<BenchReport>& reports, const std::string& format, std::string existing,
                               const PeerResultOptions& options = {});

}  // namespace cuprobe
