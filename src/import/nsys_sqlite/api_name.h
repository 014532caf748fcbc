// Nsight Systems names CUDA API calls with the API version they came in:
// cudaLaunchKernel_v7000, cudaMemcpy_v3020. cuprobe's analyses know the plain
// names (cudaMemcpy synchronises; a name with "Launch" launches), so the
// version suffix (_v and four or more digits) is cut. The driver API's own
// _v2 names (cuMemcpyDtoH_v2) keep theirs.
#pragma once

#include <string_view>

namespace cuprobe {

inline std::string_view api_name_without_version(std::string_view name) {
  std::size_t v = name.rfind("_v");
  if (v == std::string_view::npos || name.size() - v - 2 < 4) return name;
  for (std::size_t i = v + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, v);
}

}  // namespace cuprobe
