// Known GPU loads for validating `cuprobe sample` on real hardware:
//   sample_loads idle SECONDS | gemm SECONDS | copy SECONDS | cast SECONDS | gemm-count N
// gemm: cuBLAS bf16 GEMM (8192^3, fp32 accumulate) in a loop; prints TFLOP/s.
// copy: fp32 device-to-device copy kernel over 2 GiB; prints GB/s.
// cast: fp8 (e4m3) -> bf16 elementwise cast over 1 Gi elements; prints GB/s.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#define CHECK_CUDA(x)                                                               \
  do {                                                                              \
    cudaError_t e_ = (x);                                                           \
    if (e_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)
#define CHECK_CUBLAS(x)                                                             \
  do {                                                                              \
    cublasStatus_t s_ = (x);                                                        \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                              \
      std::fprintf(stderr, "%s:%d %s: status %d\n", __FILE__, __LINE__, #x, (int)s_); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

using Clock = std::chrono::steady_clock;

static double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    out[i] = in[i];
  }
}

__global__ void cast_kernel(const __nv_fp8_e4m3* __restrict__ in, __nv_bfloat16* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    out[i] = __float2bfloat16(static_cast<float>(in[i]));
  }
}

__global__ void fill_fp8(__nv_fp8_e4m3* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    p[i] = __nv_fp8_e4m3(static_cast<float>(i % 17) * 0.25f);
  }
}

static int sm_count() {
  int dev = 0, n = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  return n;
}

static int run_gemm(double seconds, long count) {
  const int n = 8192;
  __nv_bfloat16 *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, sizeof(__nv_bfloat16) * n * n));
  CHECK_CUDA(cudaMalloc(&b, sizeof(__nv_bfloat16) * n * n));
  CHECK_CUDA(cudaMalloc(&c, sizeof(__nv_bfloat16) * n * n));
  CHECK_CUDA(cudaMemset(a, 0, sizeof(__nv_bfloat16) * n * n));
  CHECK_CUDA(cudaMemset(b, 0, sizeof(__nv_bfloat16) * n * n));
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  float alpha = 1.f, beta = 0.f;
  auto gemm = [&] {
    CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16BF, n, b, CUDA_R_16BF, n,
                              &beta, c, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  for (int i = 0; i < 3; ++i) gemm();  // warm-up
  CHECK_CUDA(cudaDeviceSynchronize());
  long done = 0;
  auto t0 = Clock::now();
  if (count > 0) {
    for (long i = 0; i < count; ++i) gemm();
    done = count;
    CHECK_CUDA(cudaDeviceSynchronize());
  } else {
    while (seconds_since(t0) < seconds) {
      for (int i = 0; i < 10; ++i) gemm();
      done += 10;
      CHECK_CUDA(cudaDeviceSynchronize());
    }
  }
  double s = seconds_since(t0);
  double tflops = 2.0 * n * n * (double)n * (double)done / s / 1e12;
  std::printf("gemm bf16 %dx%dx%d: %ld GEMMs in %.3f s = %.1f TFLOP/s\n", n, n, n, done, s, tflops);
  return 0;
}

static int run_copy(double seconds) {
  const size_t bytes = 2ull << 30;
  const size_t n = bytes / sizeof(float4);
  float4 *in, *out;
  CHECK_CUDA(cudaMalloc(&in, bytes));
  CHECK_CUDA(cudaMalloc(&out, bytes));
  CHECK_CUDA(cudaMemset(in, 1, bytes));
  int blocks = sm_count() * 8;
  long done = 0;
  auto t0 = Clock::now();
  while (seconds_since(t0) < seconds) {
    for (int i = 0; i < 10; ++i) copy_kernel<<<blocks, 512>>>(in, out, n);
    done += 10;
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  double s = seconds_since(t0);
  std::printf("copy fp32: %ld copies of %.1f GiB in %.3f s = %.0f GB/s (read+write)\n", done, bytes / 1073741824.0, s,
              2.0 * bytes * done / s / 1e9);
  return 0;
}

static int run_cast(double seconds) {
  const size_t n = 1ull << 30;
  __nv_fp8_e4m3* in;
  __nv_bfloat16* out;
  CHECK_CUDA(cudaMalloc(&in, n));
  CHECK_CUDA(cudaMalloc(&out, n * 2));
  int blocks = sm_count() * 8;
  fill_fp8<<<blocks, 512>>>(in, n);
  long done = 0;
  auto t0 = Clock::now();
  while (seconds_since(t0) < seconds) {
    for (int i = 0; i < 10; ++i) cast_kernel<<<blocks, 512>>>(in, out, n);
    done += 10;
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  double s = seconds_since(t0);
  std::printf("cast fp8->bf16: %ld casts of %zu elements in %.3f s = %.0f GB/s (read+write)\n", done, n, s,
              3.0 * n * done / s / 1e9);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: sample_loads idle|gemm|copy|cast SECONDS | gemm-count N\n");
    return 2;
  }
  std::string mode = argv[1];
  double arg = std::atof(argv[2]);
  if (mode == "idle") {
    std::this_thread::sleep_for(std::chrono::duration<double>(arg));
    return 0;
  }
  CHECK_CUDA(cudaSetDevice(0));
  if (mode == "gemm") return run_gemm(arg, 0);
  if (mode == "gemm-count") return run_gemm(0, static_cast<long>(arg));
  if (mode == "copy") return run_copy(arg);
  if (mode == "cast") return run_cast(arg);
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
