// A launch-bound loop without Python: each step launches K tiny kernels on one
// stream and waits for them, so the step time is K launches' worth of CPU work.
// What `record` adds per launch shows directly, without the interpreter's noise
// (bench/gpu/record_cost.sh runs it as the eager workload).
//   nvcc -O2 -arch=sm_90 bench/gpu/launch_loop.cu -o launch_loop
//   launch_loop [--steps N] [--kernels K] [--warmup N] [--alternate N] [--tag T]
// Prints one JSON line: median step time and the time per launch. --alternate N
// calls cudaProfilerStart/Stop every N steps and adds the medians of the on and
// off blocks: under `record --capture cuda-profiler` that compares collecting
// with not collecting inside one process, free of run-to-run drift.
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

__global__ void tiny(float* x) { x[threadIdx.x] += 1.0f; }

int main(int argc, char** argv) {
  int steps = 2000, kernels = 100, warmup = 200, alternate = 0;
  std::string tag;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--kernels")) kernels = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--warmup")) warmup = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--alternate")) alternate = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--tag")) tag = argv[i + 1];
  }
  float* x = nullptr;
  if (cudaMalloc(&x, 32 * sizeof(float)) != cudaSuccess) return 1;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  std::vector<double> ms, on, off;
  ms.reserve(steps);
  for (int i = 0; i < warmup + steps; ++i) {
    int m = i - warmup;
    bool on_block = alternate > 0 && m >= 0 && (m / alternate) % 2 == 0;
    if (alternate > 0 && m >= 0 && m % alternate == 0) on_block ? cudaProfilerStart() : cudaProfilerStop();
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < kernels; ++k) tiny<<<1, 32, 0, s>>>(x);
    cudaStreamSynchronize(s);
    auto t1 = std::chrono::steady_clock::now();
    double step = std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (m < 0) continue;
    ms.push_back(step);
    // The first step of a block pays for the switch: left out of the block medians.
    if (alternate > 0 && m % alternate != 0) (on_block ? on : off).push_back(step);
  }
  if (cudaGetLastError() != cudaSuccess) return 1;
  auto median_of = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  double median = median_of(ms);
  std::printf("{\"tag\": \"%s\", \"median_ms\": %.5f, \"us_per_launch\": %.4f, \"p10_ms\": %.5f, \"p90_ms\": %.5f",
              tag.c_str(), median, median * 1000.0 / kernels, ms[ms.size() / 10], ms[ms.size() * 9 / 10]);
  if (alternate > 0) {
    double a = median_of(on), b = median_of(off);
    std::printf(", \"alternate\": %d, \"on_ms\": %.5f, \"off_ms\": %.5f, \"on_over_off\": %.5f", alternate, a, b, a / b);
  }
  std::printf("}\n");
  return 0;
}
