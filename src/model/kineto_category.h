// Kineto's event categories ("cat" in its Chrome trace JSON), spelled once: the
// Kineto importer (import/kineto_json) reads them, the Chrome export
// (report/chrome_export) writes them for the profile's kinds.
#pragma once

#include "model/profile.h"

namespace cuprobe::kineto_category {

inline constexpr char kKernel[] = "kernel";
inline constexpr char kCpuOp[] = "cpu_op";
inline constexpr char kCudaRuntime[] = "cuda_runtime";
inline constexpr char kCudaDriver[] = "cuda_driver";
inline constexpr char kGpuMemcpy[] = "gpu_memcpy";
inline constexpr char kGpuMemset[] = "gpu_memset";
inline constexpr char kUserAnnotation[] = "user_annotation";
inline constexpr char kGpuUserAnnotation[] = "gpu_user_annotation";
inline constexpr char kCudaProfilerRange[] = "cuda_profiler_range";
inline constexpr char kPythonFunction[] = "python_function";
// PyTorch before 1.10 capitalised them (read, never written).
inline constexpr char kLegacyKernel[] = "Kernel";
inline constexpr char kLegacyOperator[] = "Operator";
inline constexpr char kLegacyRuntime[] = "Runtime";
inline constexpr char kLegacyDriver[] = "Driver";
inline constexpr char kLegacyMemcpy[] = "Memcpy";
inline constexpr char kLegacyMemset[] = "Memset";
inline constexpr char kLegacyUserAnnotation[] = "User_annotation";
// Written by the export only, for what Kineto has no category of its own.
inline constexpr char kCudaGraph[] = "cuda_graph";
inline constexpr char kCpu[] = "cpu";

// The category the export writes for a GPU activity and a CPU range.
constexpr const char* of(GpuActivityKind kind) {
  switch (kind) {
    case GpuActivityKind::kKernel:
      return kKernel;
    case GpuActivityKind::kMemcpy:
      return kGpuMemcpy;
    case GpuActivityKind::kGraph:
      return kCudaGraph;
    case GpuActivityKind::kMemset:
      break;
  }
  return kGpuMemset;
}

constexpr const char* of(CpuRangeKind kind) {
  switch (kind) {
    case CpuRangeKind::kAnnotation:
      return kUserAnnotation;
    case CpuRangeKind::kRuntime:
      return kCudaRuntime;
    case CpuRangeKind::kOperator:
      return kCpuOp;
    case CpuRangeKind::kPython:
      return kPythonFunction;
    case CpuRangeKind::kOther:
      break;
  }
  return kCpu;
}

}  // namespace cuprobe::kineto_category
