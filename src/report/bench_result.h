// bench results in the peers' shapes: vLLM's `vllm bench serve --save-result`
// JSON, SGLang's `bench_serving` JSONL line, and one CSV row per run. All three
// are computed over the whole run's measured requests (the peers have no
// steady window) and name cuprobe's version, the host, the GPUs and the start
// time (BenchReport::identity).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "collect/device/device_inventory.h"
#include "report/bench_report.h"

namespace cuprobe {

enum class ResultFormat { kCuprobe, kVllm, kSglang };

struct BenchIdentityInput {
  std::string version, host, label;
  std::vector<std::pair<std::string, std::string>> metadata;  // --metadata k=v, in order
  std::int64_t start_realtime_ns = 0;
  nlohmann::ordered_json gpus;  // array of {index, name, uuid, ...}; null when unknown
  std::string gpus_note;        // why there are none
};

// The host's GPUs into `in`: one {index, name, uuid, memory_total} each (bench's
// spelling since its first result; `devices` writes memory_total_bytes: each
// output keeps its keys), or the note why there are none.
void set_identity_gpus(BenchIdentityInput& in, const DevicesReport& devices);

// {"cuprobe_version", "host", "start_time" (ISO 8601 UTC), "start_ns", "gpus" or "gpus_note", "label", "metadata"}
nlohmann::ordered_json bench_identity_json(const BenchIdentityInput& in);

// "k=v" → (k, v); throws cuprobe::Error (usage) without '='.
std::pair<std::string, std::string> parse_metadata(const std::string& text);

// What the peers' result files hold beyond their defaults.
struct PeerResultOptions {
  bool detailed = false;             // vLLM's --save-detailed, SGLang's --output-details: per-request lists
  std::vector<std::string> metrics;  // vLLM's --percentile-metrics; empty: vLLM's default ttft, tpot, itl
  std::vector<double> percentiles;   // vLLM's --metric-percentiles; empty: vLLM's default 99
  bool identity = false;             // --result-identity: cuprobe's identity under "cuprobe" (vLLM's and SGLang's)
};

// vLLM's result object: the keys vllm/benchmarks/serve.py (main_async and
// benchmark) writes, with its types and units (seconds in lists, ms in
// statistics), and cuprobe's identity only when asked (options.identity).
nlohmann::ordered_json bench_result_vllm(const BenchReport& report, const PeerResultOptions& options = {});
// SGLang's bench_serving result line (keys as python/sglang/benchmark/serving.py writes them), and cuprobe's
// identity only when asked (options.identity).
nlohmann::ordered_json bench_result_sglang(const BenchReport& report, const PeerResultOptions& options = {});
// vLLM's default --save-result file name: LABEL-RATEqps[-concurrencyC]-MODEL-DATE.json
// (LABEL: --label, else the backend; a ramp: LABEL-ramp-up-KIND-STARTqps-ENDqps...).
std::string vllm_result_filename(const BenchReport& report);
// The peers' per-request lists of the measured requests: input_lens, output_lens,
// ttfts and itls (seconds), errors ("" for a success); with `vllm`, vLLM's
// start_times (CLOCK_MONOTONIC seconds, as time.perf_counter) and generated_texts too.
void add_result_details(nlohmann::ordered_json& result, const BenchReport& report, bool vllm = false);
// The CSV header and one row (the whole run's figures).
std::string bench_result_csv_header(const std::vector<double>& percentiles);
std::string bench_result_csv_row(const BenchReport& report);

}  // namespace cuprobe
