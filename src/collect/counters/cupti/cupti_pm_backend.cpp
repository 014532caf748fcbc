// PmBackend on CUPTI PM sampling (cupti_pmsampling.h) and the profiler host API.
#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>

#include "collect/counters/counter_image_cursor.h"
#include "collect/counters/cupti/cupti_status.h"
#include "collect/counters/cupti/nvperf_host.h"
#include "collect/counters/pm_backend.h"
#include "collect/device/cuda_driver.h"
#include "common/clock.h"

namespace cuprobe {
namespace {

#define CUPROBE_PARAMS(type, name) \
  type name { type##_STRUCT_SIZE }

constexpr std::uint32_t kMaxImageSamples = 1024;  // CUPTI's limit on a counter data image

struct GpuState {
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_PmSampling_Object* sampler = nullptr;
  std::vector<std::uint8_t> availability, config, counter_data;
  std::vector<std::string> names;
  std::vector<const char*> name_ptrs;
  std::int64_t clock_offset_ns = 0;        // CLOCK_REALTIME - CUPTI timestamp
  CounterImageCursor cursor;               // what of counter_data is evaluated, and when it is reset
  std::uint64_t last_evaluated_start = 0;  // CUPTI start timestamp of the last sample evaluated or skipped
  std::uint64_t last_emitted_start = 0;    // ... of the last sample emitted in this stream
  bool started = false;
};

// CUPROBE_DECODE_PROFILE=1: time spent in each CUPTI step, printed at exit (stderr).
// Each GPU's thread decodes with its own `Times`, added here under the lock.
struct DecodeProfile {
  struct Times {
    double decode_s = 0, info_s = 0, evaluate_s = 0, reset_s = 0;
    long calls = 0, samples = 0, resets = 0, refills = 0, repeats = 0;
  };
  bool on = std::getenv("CUPROBE_DECODE_PROFILE") != nullptr;
  std::mutex mutex;
  Times total;
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  void add(const Times& t) {
    if (!on) return;
    std::lock_guard<std::mutex> lock(mutex);
    total.decode_s += t.decode_s;
    total.info_s += t.info_s;
    total.evaluate_s += t.evaluate_s;
    total.reset_s += t.reset_s;
    total.calls += t.calls;
    total.samples += t.samples;
    total.resets += t.resets;
    total.refills += t.refills;
    total.repeats += t.repeats;
  }
  void print() const {
    if (!on) return;
    std::fprintf(stderr,
                 "cuprobe decode profile: %ld decodes, %ld samples, %ld image resets, %ld image refills, "
                 "%ld repeated samples skipped; DecodeData %.3f s, sample info %.3f s, EvaluateToGpuValues "
                 "%.3f s, image reset %.3f s\n",
                 total.calls, total.samples, total.resets, total.refills, total.repeats, total.decode_s, total.info_s,
                 total.evaluate_s, total.reset_s);
  }
};

class CuptiPmBackend final : public PmBackend {
 public:
  ~CuptiPmBackend() override {
    profile_.print();
    for (auto& [gpu, state] : gpus_) release(state);
    if (profiler_initialized_) {
      CUPROBE_PARAMS(CUpti_Profiler_DeInitialize_Params, p);
      cuptiProfilerDeInitialize(&p);
    }
  }

  BackendStatus initialize() override {
    if (profiler_initialized_) return {};
    CudaDriver& driver = CudaDriver::instance();
    if (!driver.loaded()) return {CounterStatus::kNoDriver, driver.error()};
    if (driver.init_result() == CudaDriver::kErrorNoDevice) return {CounterStatus::kNoGpu, driver.error()};
    if (driver.init_result() != 0) return {CounterStatus::kNoDriver, driver.error()};
    load_nvperf_host();
    CUPROBE_PARAMS(CUpti_Profiler_Initialize_Params, p);
    BackendStatus st = classify_cupti_result(cuptiProfilerInitialize(&p), "cuptiProfilerInitialize");
    if (!st.ok()) return st;
    profiler_initialized_ = true;
    return {};
  }

  int device_count() override { return CudaDriver::instance().device_count(); }

  std::string device_name(int gpu) override { return CudaDriver::instance().device_name(gpu); }

  BackendStatus chip_name(int gpu, std::string& chip) override {
    CUPROBE_PARAMS(CUpti_Device_GetChipName_Params, p);
    p.deviceIndex = static_cast<std::size_t>(gpu);
    BackendStatus st = classify_cupti_result(cuptiDeviceGetChipName(&p), "cuptiDeviceGetChipName");
    if (st.ok()) chip = p.pChipName ? p.pChipName : "";
    return st;
  }

  BackendStatus metric_availability(int gpu, const std::vector<std::string>& raw_metrics,
                                    std::vector<bool>& available) override {
    available.assign(raw_metrics.size(), false);
    BackendStatus st = check_supported(gpu);
    if (!st.ok()) return st;
    std::vector<std::uint8_t> image;
    st = availability(gpu, image);
    if (!st.ok()) return st;
    std::string chip;
    st = chip_name(gpu, chip);
    if (!st.ok()) return st;
    for (std::size_t i = 0; i < raw_metrics.size(); ++i) {
      CUPROBE_PARAMS(CUpti_Profiler_Host_Initialize_Params, init);
      init.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
      init.pChipName = chip.c_str();
      init.pCounterAvailabilityImage = image.data();
      load_nvperf_host();
      st = classify_cupti_result(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize");
      if (!st.ok()) return st;
      const char* name = raw_metrics[i].c_str();
      CUPROBE_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, add);
      add.pHostObject = init.pHostObject;
      add.ppMetricNames = &name;
      add.numMetrics = 1;
      available[i] = cuptiProfilerHostConfigAddMetrics(&add) == CUPTI_SUCCESS;
      CUPROBE_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, deinit);
      deinit.pHostObject = init.pHostObject;
      cuptiProfilerHostDeinitialize(&deinit);
    }
    return {};
  }

  BackendStatus enable(int gpu, const std::vector<std::string>& raw_metrics,
                       const PmSamplingSettings& settings) override {
    GpuState& s = gpus_[gpu];
    release(s);
    s.names = raw_metrics;
    s.name_ptrs.clear();
    for (const auto& n : s.names) s.name_ptrs.push_back(n.c_str());
    BackendStatus st = check_supported(gpu);
    if (!st.ok()) return st;
    st = availability(gpu, s.availability);
    if (!st.ok()) return st;
    std::string chip;
    st = chip_name(gpu, chip);
    if (!st.ok()) return st;
    st = build_config(chip, s);
    if (!st.ok()) return fail(s, st);

    CUPROBE_PARAMS(CUpti_PmSampling_Enable_Params, en);
    en.deviceIndex = static_cast<std::size_t>(gpu);
    CUptiResult r = cuptiPmSamplingEnable(&en);
    if (r == CUPTI_ERROR_INVALID_OPERATION) r = CUPTI_ERROR_HARDWARE_BUSY;  // already enabled elsewhere
    st = classify_cupti_result(r, "cuptiPmSamplingEnable");
    if (!st.ok()) return fail(s, st);
    s.sampler = en.pPmSamplingObject;

    CUPROBE_PARAMS(CUpti_PmSampling_SetConfig_Params, cfg);
    cfg.pPmSamplingObject = s.sampler;
    cfg.configSize = s.config.size();
    cfg.pConfig = s.config.data();
    cfg.hardwareBufferSize = settings.hardware_buffer_bytes;
    cfg.samplingInterval = static_cast<std::uint64_t>(settings.interval_ns);
    cfg.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    cfg.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    st = classify_cupti_result(cuptiPmSamplingSetConfig(&cfg), "cuptiPmSamplingSetConfig");
    if (!st.ok()) return fail(s, st);

    CUPROBE_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params, size);
    size.pPmSamplingObject = s.sampler;
    size.pMetricNames = s.name_ptrs.data();
    size.numMetrics = s.name_ptrs.size();
    size.maxSamples = std::min(settings.max_samples, kMaxImageSamples);
    st = classify_cupti_result(cuptiPmSamplingGetCounterDataSize(&size), "cuptiPmSamplingGetCounterDataSize");
    if (!st.ok()) return fail(s, st);
    s.counter_data.assign(size.counterDataSize, 0);
    st = reset_counter_data(s);
    if (!st.ok()) return fail(s, st);
    return {};
  }

  BackendStatus start(int gpu) override {
    auto it = gpus_.find(gpu);
    if (it == gpus_.end() || !it->second.sampler) return {CounterStatus::kOther, "start before enable"};
    GpuState& s = it->second;
    // A new stream: nothing decoded before a stop belongs to it.
    BackendStatus reset = reset_counter_data(s);
    if (!reset.ok()) return reset;
    s.cursor.restart();
    s.last_emitted_start = 0;
    std::uint64_t before = 0;
    cuptiGetTimestamp(&before);
    std::int64_t now = realtime_ns();
    s.clock_offset_ns = now - static_cast<std::int64_t>(before);
    CUPROBE_PARAMS(CUpti_PmSampling_Start_Params, p);
    p.pPmSamplingObject = s.sampler;
    BackendStatus st = classify_cupti_result(cuptiPmSamplingStart(&p), "cuptiPmSamplingStart");
    if (st.ok()) s.started = true;
    return st;
  }

  BackendStatus stop(int gpu) override {
    auto it = gpus_.find(gpu);
    if (it == gpus_.end() || !it->second.started) return {};
    CUPROBE_PARAMS(CUpti_PmSampling_Stop_Params, p);
    p.pPmSamplingObject = it->second.sampler;
    it->second.started = false;
    return classify_cupti_result(cuptiPmSamplingStop(&p), "cuptiPmSamplingStop");
  }

  // Decodes into the image that earlier calls filled (counter_image_cursor.h says why it
  // is kept), evaluates the samples completed since, and reinitializes it only when full.
  BackendStatus decode(int gpu, std::vector<RawSample>& out, DecodeResult& result) override {
    auto it = gpus_.find(gpu);
    if (it == gpus_.end() || !it->second.sampler) return {CounterStatus::kOther, "decode before enable"};
    GpuState& s = it->second;
    CUPROBE_PARAMS(CUpti_PmSampling_DecodeData_Params, d);
    d.pPmSamplingObject = s.sampler;
    d.pCounterDataImage = s.counter_data.data();
    d.counterDataImageSize = s.counter_data.size();
    DecodeProfile::Times times;
    double t0 = profile_.on ? DecodeProfile::now() : 0;
    CUptiResult r = cuptiPmSamplingDecodeData(&d);
    double t1 = profile_.on ? DecodeProfile::now() : 0;
    ++times.calls;
    times.decode_s += t1 - t0;
    BackendStatus st = classify_cupti_result(r, "cuptiPmSamplingDecodeData");
    if (r == CUPTI_ERROR_OUT_OF_MEMORY || d.overflow) result.overflow = true;
    if (!st.ok() && st.code != CounterStatus::kOverflow) return st;
    bool full = r == CUPTI_SUCCESS && d.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
    result.more = full;

    CUPROBE_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params, info);
    info.pCounterDataImage = s.counter_data.data();
    info.counterDataImageSize = s.counter_data.size();
    BackendStatus ist =
        classify_cupti_result(cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo");
    if (!ist.ok()) return ist;
    if (image_refilled(s, info.numPopulatedSamples)) {
      s.cursor.restart();
      ++times.refills;
    }
    CounterImageCursor::Step step = s.cursor.after_decode(info.numPopulatedSamples, info.numCompletedSamples, full);
    result.dropped_partials = step.dropped_partials;
    for (std::size_t i = step.begin; i < step.end; ++i) {
      CUPROBE_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params, si);
      double t2 = profile_.on ? DecodeProfile::now() : 0;
      if (!sample_info(s, i, si)) continue;
      double t3 = profile_.on ? DecodeProfile::now() : 0;
      times.info_s += t3 - t2;
      // Samples follow each other: one that starts no later than the last emitted is
      // one already read (after a refill) or not a sample of this stream (zero-length
      // ones stamped at the start have been seen after a stop).
      if (s.last_emitted_start != 0 && si.startTimestamp <= s.last_emitted_start) {
        ++times.repeats;
        continue;
      }
      s.last_emitted_start = si.startTimestamp;
      RawSample sample;
      sample.start_ns = static_cast<std::int64_t>(si.startTimestamp) + s.clock_offset_ns;
      sample.end_ns = static_cast<std::int64_t>(si.endTimestamp) + s.clock_offset_ns;
      sample.values.assign(s.name_ptrs.size(), std::nan(""));
      CUPROBE_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, e);
      e.pHostObject = s.host;
      e.pCounterDataImage = s.counter_data.data();
      e.counterDataImageSize = s.counter_data.size();
      e.ppMetricNames = s.name_ptrs.data();
      e.numMetrics = s.name_ptrs.size();
      e.rangeIndex = i;
      e.pMetricValues = sample.values.data();
      if (cuptiProfilerHostEvaluateToGpuValues(&e) != CUPTI_SUCCESS) {
        sample.values.assign(s.name_ptrs.size(), std::nan(""));  // never a made-up zero
      }
      if (profile_.on) times.evaluate_s += DecodeProfile::now() - t3;
      ++times.samples;
      out.push_back(std::move(sample));
    }
    // Where the next decode must find the last sample evaluated or skipped (image_refilled).
    if (!step.reset && step.end > 0) {
      CUPROBE_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params, si);
      if (sample_info(s, step.end - 1, si)) s.last_evaluated_start = si.startTimestamp;
    }
    BackendStatus rst;
    if (step.reset) {
      double t4 = profile_.on ? DecodeProfile::now() : 0;
      rst = reset_counter_data(s);
      if (profile_.on) times.reset_s += DecodeProfile::now() - t4;
      ++times.resets;
    }
    profile_.add(times);
    if (!rst.ok()) return rst;
    return st.code == CounterStatus::kOverflow ? BackendStatus{} : st;
  }

  std::int64_t clock_ns() override { return realtime_ns(); }

  void disable(int gpu) override {
    auto it = gpus_.find(gpu);
    if (it == gpus_.end()) return;
    release(it->second);
  }

  BackendStatus probe(int gpu) override {
    BackendStatus st = check_supported(gpu);
    if (!st.ok()) return st;
    std::vector<std::uint8_t> image;
    st = availability(gpu, image);
    if (!st.ok()) return st;
    CUPROBE_PARAMS(CUpti_PmSampling_Enable_Params, en);
    en.deviceIndex = static_cast<std::size_t>(gpu);
    CUptiResult r = cuptiPmSamplingEnable(&en);
    if (r == CUPTI_ERROR_INVALID_OPERATION) r = CUPTI_ERROR_HARDWARE_BUSY;
    st = classify_cupti_result(r, "cuptiPmSamplingEnable");
    if (!st.ok()) return st;
    CUPROBE_PARAMS(CUpti_PmSampling_Disable_Params, dis);
    dis.pPmSamplingObject = en.pPmSamplingObject;
    cuptiPmSamplingDisable(&dis);
    return {};
  }

 private:
  static BackendStatus fail(GpuState& s, BackendStatus st) {
    release(s);
    return st;
  }

  static void release(GpuState& s) {
    if (s.started) {
      CUPROBE_PARAMS(CUpti_PmSampling_Stop_Params, p);
      p.pPmSamplingObject = s.sampler;
      cuptiPmSamplingStop(&p);
      s.started = false;
    }
    if (s.sampler) {
      CUPROBE_PARAMS(CUpti_PmSampling_Disable_Params, p);
      p.pPmSamplingObject = s.sampler;
      cuptiPmSamplingDisable(&p);
      s.sampler = nullptr;
    }
    if (s.host) {
      CUPROBE_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, p);
      p.pHostObject = s.host;
      cuptiProfilerHostDeinitialize(&p);
      s.host = nullptr;
    }
  }

  static BackendStatus check_supported(int gpu) {
    CUPROBE_PARAMS(CUpti_Profiler_DeviceSupported_Params, p);
    p.cuDevice = gpu;
    p.api = CUPTI_PROFILER_PM_SAMPLING;
    BackendStatus st = classify_cupti_result(cuptiProfilerDeviceSupported(&p), "cuptiProfilerDeviceSupported");
    if (!st.ok() || p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return st;
    std::string why;
    auto note = [&why](CUpti_Profiler_Support_Level level, const char* what) {
      if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) why += std::string(why.empty() ? "" : ", ") + what;
      if (level == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
        why += std::string(why.empty() ? "" : ", ") + what + " (profiling disabled)";
      }
    };
    note(p.architecture, "architecture");
    note(p.sli, "SLI");
    note(p.vGpu, "vGPU");
    note(p.confidentialCompute, "confidential compute");
    note(p.cmp, "CMP");
    note(p.wsl, "WSL");
    if (why.empty()) why = "unknown reason";
    return {CounterStatus::kUnsupportedDevice, "cuptiProfilerDeviceSupported: " + why};
  }

  static BackendStatus availability(int gpu, std::vector<std::uint8_t>& image) {
    CUPROBE_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params, p);
    p.deviceIndex = static_cast<std::size_t>(gpu);
    BackendStatus st =
        classify_cupti_result(cuptiPmSamplingGetCounterAvailability(&p), "cuptiPmSamplingGetCounterAvailability");
    if (!st.ok()) return st;
    image.assign(p.counterAvailabilityImageSize, 0);
    p.pCounterAvailabilityImage = image.data();
    return classify_cupti_result(cuptiPmSamplingGetCounterAvailability(&p), "cuptiPmSamplingGetCounterAvailability");
  }

  static BackendStatus build_config(const std::string& chip, GpuState& s) {
    CUPROBE_PARAMS(CUpti_Profiler_Host_Initialize_Params, init);
    init.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    init.pChipName = chip.c_str();
    init.pCounterAvailabilityImage = s.availability.data();
    load_nvperf_host();
    BackendStatus st = classify_cupti_result(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize");
    if (!st.ok()) return st;
    s.host = init.pHostObject;
    CUPROBE_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, add);
    add.pHostObject = s.host;
    add.ppMetricNames = s.name_ptrs.data();
    add.numMetrics = s.name_ptrs.size();
    CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add);
    if (r != CUPTI_SUCCESS) {
      // Name the first metric the chip rejects.
      for (const char* name : s.name_ptrs) {
        CUPROBE_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, prop);
        prop.pHostObject = s.host;
        prop.pMetricName = name;
        if (cuptiProfilerHostGetMetricProperties(&prop) != CUPTI_SUCCESS) {
          return {CounterStatus::kInvalidMetric, std::string("'") + name + "' is not a metric of " + chip};
        }
      }
      st = classify_cupti_result(r, "cuptiProfilerHostConfigAddMetrics");
      if (st.code == CounterStatus::kOther) st.code = CounterStatus::kInvalidMetric;
      return st;
    }
    CUPROBE_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, size);
    size.pHostObject = s.host;
    st = classify_cupti_result(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    if (!st.ok()) return st;
    s.config.assign(size.configImageSize, 0);
    CUPROBE_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, img);
    img.pHostObject = s.host;
    img.configImageSize = s.config.size();
    img.pConfigImage = s.config.data();
    st = classify_cupti_result(cuptiProfilerHostGetConfigImage(&img), "cuptiProfilerHostGetConfigImage");
    if (!st.ok()) return st;
    CUPROBE_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, passes);
    passes.configImageSize = s.config.size();
    passes.pConfigImage = s.config.data();
    st = classify_cupti_result(cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
    if (!st.ok()) return st;
    if (passes.numOfPasses != 1) {
      return {CounterStatus::kTooManyMetrics, std::to_string(passes.numOfPasses) + " passes needed on " + chip};
    }
    return {};
  }

  // The cursor expects each decode to append to the image. Should a decode refill it
  // from its first sample instead, the last sample evaluated is no longer where it was:
  // then the image is read from its start again (as before issue 29's fix), and the
  // decode profile counts it.
  static bool image_refilled(GpuState& s, std::size_t populated) {
    std::size_t last = s.cursor.evaluated();
    if (last == 0) return false;
    CUPROBE_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params, si);
    if (populated < last || !sample_info(s, last - 1, si)) return true;
    return si.startTimestamp != s.last_evaluated_start;
  }

  static bool sample_info(GpuState& s, std::size_t index, CUpti_PmSampling_CounterData_GetSampleInfo_Params& si) {
    si.pPmSamplingObject = s.sampler;
    si.pCounterDataImage = s.counter_data.data();
    si.counterDataImageSize = s.counter_data.size();
    si.sampleIndex = index;
    return cuptiPmSamplingCounterDataGetSampleInfo(&si) == CUPTI_SUCCESS;
  }

  static BackendStatus reset_counter_data(GpuState& s) {
    CUPROBE_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params, p);
    p.pPmSamplingObject = s.sampler;
    p.counterDataSize = s.counter_data.size();
    p.pCounterData = s.counter_data.data();
    return classify_cupti_result(cuptiPmSamplingCounterDataImageInitialize(&p),
                                 "cuptiPmSamplingCounterDataImageInitialize");
  }

  bool profiler_initialized_ = false;
  DecodeProfile profile_;
  std::map<int, GpuState> gpus_;
};

}  // namespace

std::unique_ptr<PmBackend> make_cupti_backend() { return std::make_unique<CuptiPmBackend>(); }

}  // namespace cuprobe
