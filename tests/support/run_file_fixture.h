// A small complete run file (store/run_file_writer): two kernels of process
// 10 on GPU 0, `gemm` then `softmax`, with optional SQL run on it afterwards.
#pragma once

#include <string>

namespace cuprobe::test {

// Writes it at `path` (which must not exist) and returns `path`.
std::string small_run_file(const std::string& path, const std::string& then_sql = "");

}  // namespace cuprobe::test
