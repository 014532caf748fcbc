#include "collect/counters/dcgm_sampler.h"

#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "collect/counters/counter_columns.h"
#include "common/clock.h"
#include "common/error.h"
#include "net/http_fetch.h"

namespace cuprobe {
namespace {

constexpr std::chrono::seconds kFetchTimeout{5};
constexpr std::size_t kBodyLimit = 1 << 20;  // http_fetch's cap: a page that size was cut

// The counter columns DCGM publishes (its profiling fields); the vital signs come from NVML.
bool read_from_dcgm(const CounterColumn& c) { return c.source == ColumnSource::kCounter && c.dcgm_field_id != 0; }

std::string page_path(const HttpUrl& url) { return url.path.empty() ? "/metrics" : url.path; }

// One GET of the page; throws Error (exit 3) with what went wrong.
PrometheusPage fetch_page(const HttpUrl& url) {
  std::string where = url.base() + page_path(url);
  static const HttpClientConfig client{
      .extra_headers = {}, .tls = nullptr, .proxies = proxy_settings_from_environment()};
  HttpFetchResult r = http_fetch(url, client, "GET", page_path(url), "", kFetchTimeout);
  if (!r.responded) throw Error("dcgm-exporter at " + where + ": " + r.detail, kExitCountersUnavailable);
  if (r.status != 200) {
    throw Error("dcgm-exporter at " + where + ": HTTP " + std::to_string(r.status), kExitCountersUnavailable);
  }
  if (r.body.size() >= kBodyLimit) {
    throw Error("dcgm-exporter at " + where + ": page larger than 1 MiB", kExitCountersUnavailable);
  }
  return parse_prometheus_text(r.body, where);
}

class DcgmSampler final : public DeviceSampler {
 public:
  DcgmSampler(const HttpUrl& url, const SamplerConfig& config) : url_(url), interval_(config.interval) {
    PrometheusPage page = fetch_page(url_);
    std::set<std::string> present;
    for (const auto& s : page.samples) present.insert(s.name);
    for (const CounterColumn& c : kCounterColumns) {
      if (!read_from_dcgm(c)) continue;
      if (present.count(std::string(c.series))) {
        names_.emplace_back(c.name);
        raw_.emplace_back(c.series);
      } else {
        skipped_.emplace_back(c.name);
      }
    }
    if (names_.empty()) {
      throw Error("dcgm-exporter at " + url_.base() + page_path(url_) +
                      ": no profiling fields (DCGM_FI_PROF_*) on the page; enable them in its counters CSV",
                  kExitCountersUnavailable);
    }
    std::set<int> wanted(config.gpus.begin(), config.gpus.end());
    for (const auto& row : dcgm_rows(page, names_, 0, 0)) {
      if (wanted.empty() || wanted.count(row.gpu)) gpus_.push_back(row.gpu);
    }
    if (gpus_.empty()) throw Error("dcgm-exporter at " + url_.base() + ": none of the asked GPUs", kExitUsage);
  }
  ~DcgmSampler() override { stop(); }

  const std::vector<std::string>& metric_names() const override { return names_; }
  std::vector<std::string> raw_metric_names() const override { return raw_; }
  std::vector<std::string> skipped_metrics() const override { return skipped_; }
  std::vector<int> gpus() const override { return gpus_; }
  std::vector<std::string> chips() const override { return std::vector<std::string>(gpus_.size(), "dcgm"); }
  std::int64_t lost_samples() const override { return 0; }

  void start() override {
    if (thread_.joinable()) return;
    running_ = true;
    thread_ = std::thread([this] { loop(); });
  }
  void stop() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      running_ = false;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  std::vector<CounterRow> drain() override {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<CounterRow> rows;
    rows.swap(queue_);
    if (rows.empty() && !error_.empty()) {
      std::string e;
      e.swap(error_);
      throw Error(e, kExitCountersUnavailable);
    }
    return rows;
  }

 private:
  void loop() {
    std::int64_t last = realtime_ns();
    std::unique_lock<std::mutex> lock(mutex_);
    while (running_) {
      wake_.wait_for(lock, interval_, [this] { return !running_; });
      if (!running_) break;
      lock.unlock();
      std::vector<CounterRow> rows;
      std::string error;
      std::int64_t now = realtime_ns();
      try {
        rows = dcgm_rows(fetch_page(url_), names_, last, now);
      } catch (const Error& e) {
        error = e.what();
      }
      last = now;
      lock.lock();
      if (!error.empty()) {
        error_ = error;
        continue;
      }
      for (auto& r : rows) {
        for (int g : gpus_) {
          if (g == r.gpu) queue_.push_back(std::move(r));
        }
      }
    }
  }

  HttpUrl url_;
  std::chrono::nanoseconds interval_;
  std::vector<std::string> names_, raw_, skipped_;
  std::vector<int> gpus_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool running_ = false;
  std::vector<CounterRow> queue_;
  std::string error_;
  std::thread thread_;
};

}  // namespace

std::vector<CounterRow> dcgm_rows(const PrometheusPage& page, const std::vector<std::string>& columns,
                                  std::int64_t start_ns, std::int64_t end_ns) {
  std::map<std::string, std::pair<std::size_t, double>> by_field;  // DCGM name → column index, scale
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const CounterColumn* c = find_counter_column(columns[i], ColumnSource::kCounter);
    if (c && read_from_dcgm(*c)) by_field[std::string(c->series)] = {i, 1.0 / c->series_scale};
  }
  std::map<int, CounterRow> rows;
  for (const auto& s : page.samples) {
    auto field = by_field.find(s.name);
    if (field == by_field.end()) continue;
    const std::string* mig = s.label("GPU_I_ID");
    if (mig && !mig->empty()) continue;
    const std::string* gpu = s.label("gpu");
    if (!gpu || gpu->empty() || gpu->size() > 6 || gpu->find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    int g = std::stoi(*gpu);
    CounterRow& row = rows[g];
    if (row.values.empty()) {
      row.gpu = g;
      row.start_ns = start_ns;
      row.end_ns = end_ns;
      row.values.assign(columns.size(), NAN);
    }
    row.values[field->second.first] = s.value * field->second.second;
  }
  std::vector<CounterRow> out;
  for (auto& [g, row] : rows) out.push_back(std::move(row));
  return out;
}

std::unique_ptr<DeviceSampler> open_dcgm_sampler(const HttpUrl& url, const SamplerConfig& config) {
  if (url.https) throw Error("--source dcgm=" + url.base() + ": https is not supported; use http", kExitUsage);
  return std::make_unique<DcgmSampler>(url, config);
}

}  // namespace cuprobe
