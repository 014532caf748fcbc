#include "support/sample_run_file.h"

#include "store/run_file_schema.h"
#include "store/run_file_writer.h"

namespace cuprobe::fuzz {

void write_sample_run_file(const std::string& path) {
  RunFileWriter w(path, true);
  w.set_metadata("rank", "1");
  w.set_metadata("world_size", "2");
  w.add_device({.id = 0, .name = "NVIDIA H200", .sm_count = 132, .compute_major = 9, .compute_minor = 0,
                .memory_bytes = 150109323264, .uuid = "GPU-0a1b2c3d"});
  w.process_started(4242, 1, "python serve.py --model m", 900, 130000);
  std::int64_t t = 1000;
  for (std::int64_t step = 0; step < 2; ++step, t += 10000) {
    w.add_range({.pid = 4242, .tid = 4243, .start_ns = t, .end_ns = t + 9000, .name_id = w.name_id("decode_step"),
                 .kind = "nvtx"});
    w.add_range({.pid = 4242, .tid = 4243, .start_ns = t + 100, .end_ns = t + 400,
                 .name_id = w.name_id("cudaLaunchKernel"), .kind = "runtime", .correlation = 10 + step});
    w.add_kernel({.pid = 4242, .device = 0, .stream = 7, .start_ns = t + 500, .end_ns = t + 4500,
                  .name_id = w.name_id("void gemm_kernel<128>(float*)", "_Z11gemm_kernelILi128EEvPf"),
                  .grid = {132, 1, 1}, .block = {256, 1, 1}, .registers = 64, .static_shared = 1024,
                  .dynamic_shared = 49152, .correlation = 10 + step});
    w.add_memcpy({.pid = 4242, .device = 0, .stream = 7, .start_ns = t + 4600, .end_ns = t + 5600, .kind = "DtoH",
                  .bytes = 4096});
    w.add_memset({.pid = 4242, .device = 0, .stream = 7, .start_ns = t + 5700, .end_ns = t + 5800, .bytes = 4096});
    w.add_graph_launch({.pid = 4242, .device = 0, .stream = 7, .start_ns = t + 6000, .end_ns = t + 8000, .graph_id = 3});
    w.add_sample(0, t, t + 5000, "sm__cycles_active.avg", 0.75);
    w.add_sample(0, t + 5000, t + 10000, "dram__throughput.avg.pct_of_peak_sustained_elapsed", 31.5);
  }
  w.count_loss("cupti", 4242, "buffer_full", 3);
  w.add_notice(t, 4242, "inject", "capture window closed");
  w.add_capture(900, 4242, true, "start");
  w.process_ended(4242, t, "exited", 0);
  w.finish(kRunStatusComplete);
}

}  // namespace cuprobe::fuzz
