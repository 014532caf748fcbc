#include "support/sample_run_file.h"

#include "store/run_file_schema.h"
#include "store/run_file_writer.h"

namespace cuprobe::fuzz {
namespace {

RunActivityRow activity(std::int64_t start_ns, std::int64_t end_ns) {
  return {.pid = 4242, .device = 0, .stream = 7, .start_ns = start_ns, .end_ns = end_ns};
}

}  // namespace

void write_sample_run_file(const std::string& path) {
  RunFileWriter w(path, true);
  w.set_metadata("rank", "1");
  w.set_metadata("world_size", "2");
  w.add_device({.id = 0,
                .name = "NVIDIA H200",
                .sm_count = 132,
                .compute_major = 9,
                .compute_minor = 0,
                .memory_bytes = 150109323264,
                .uuid = "GPU-0a1b2c3d"});
  w.process_started(4242, 1, "python serve.py --model m", 900, 130000);
  std::int64_t t = 1000;
  for (std::int64_t step = 0; step < 2; ++step, t += 10000) {
    w.add_range({.pid = 4242,
                 .tid = 4243,
                 .start_ns = t,
                 .end_ns = t + 9000,
                 .name_id = w.name_id("decode_step"),
                 .kind = "nvtx"});
    w.add_range({.pid = 4242,
                 .tid = 4243,
                 .start_ns = t + 100,
                 .end_ns = t + 400,
                 .name_id = w.name_id("cudaLaunchKernel"),
                 .kind = "runtime",
                 .correlation = 10 + step});
    RunKernelRow kernel;
    kernel.RunActivityRow::operator=(activity(t + 500, t + 4500));
    kernel.correlation = 10 + step;
    kernel.name_id = w.name_id("void gemm_kernel<128>(float*)", "_Z11gemm_kernelILi128EEvPf");
    kernel.grid[0] = 132;
    kernel.block[0] = 256;
    kernel.registers = 64;
    kernel.static_shared = 1024;
    kernel.dynamic_shared = 49152;
    w.add_kernel(kernel);
    w.add_memcpy({activity(t + 4600, t + 5600), "DtoH", 4096});
    w.add_memset({activity(t + 5700, t + 5800), {}, 4096});
    RunActivityRow graph = activity(t + 6000, t + 8000);
    graph.graph_id = 3;
    w.add_graph_launch({graph});
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
