#include "support/sample_run_file.h"

#include "store/run_file_schema.h"
#include "store/run_file_writer.h"

namespace cuprobe::fuzz {

void write_sample_run_file(const std::string& path) {
  RunFileWriter w(path, true);
  w.set_metadata("rank", "1");
  w.set_metadata("world_size", "2");
  RunDeviceRow dev;
  dev.id = 0;
  dev.name = "NVIDIA H200";
  dev.sm_count = 132;
  dev.compute_major = 9;
  dev.memory_bytes = 150109323264;
  dev.uuid = "GPU-0a1b2c3d";
  w.add_device(dev);
  w.process_started(4242, 1, "python serve.py --model m", 900, 130000);
  std::int64_t t = 1000;
  for (int step = 0; step < 2; ++step) {
    RunRangeRow annotation;
    annotation.pid = 4242;
    annotation.tid = 4243;
    annotation.start_ns = t;
    annotation.end_ns = t + 9000;
    annotation.kind = "nvtx";
    annotation.name_id = w.name_id("decode_step");
    w.add_range(annotation);
    RunRangeRow launch = annotation;
    launch.start_ns = t + 100;
    launch.end_ns = t + 400;
    launch.kind = "runtime";
    launch.name_id = w.name_id("cudaLaunchKernel");
    launch.correlation = 10 + step;
    w.add_range(launch);
    RunKernelRow k;
    k.pid = 4242;
    k.device = 0;
    k.stream = 7;
    k.start_ns = t + 500;
    k.end_ns = t + 4500;
    k.name_id = w.name_id("void gemm_kernel<128>(float*)", "_Z11gemm_kernelILi128EEvPf");
    k.grid[0] = 132;
    k.block[0] = 256;
    k.registers = 64;
    k.static_shared = 1024;
    k.dynamic_shared = 49152;
    k.correlation = 10 + step;
    w.add_kernel(k);
    RunCopyRow copy;
    copy.pid = 4242;
    copy.device = 0;
    copy.stream = 7;
    copy.start_ns = t + 4600;
    copy.end_ns = t + 5600;
    copy.kind = "DtoH";
    copy.bytes = 4096;
    w.add_memcpy(copy);
    copy.start_ns = t + 5700;
    copy.end_ns = t + 5800;
    copy.kind = "";
    w.add_memset(copy);
    copy.start_ns = t + 6000;
    copy.end_ns = t + 8000;
    copy.graph_id = 3;
    w.add_graph_launch(copy);
    w.add_sample(0, t, t + 5000, "sm__cycles_active.avg", 0.75);
    w.add_sample(0, t + 5000, t + 10000, "dram__throughput.avg.pct_of_peak_sustained_elapsed", 31.5);
    t += 10000;
  }
  w.count_loss("cupti", 4242, "buffer_full", 3);
  w.add_notice(t, 4242, "inject", "capture window closed");
  w.add_capture(900, 4242, true, "start");
  w.process_ended(4242, t, "exited", 0);
  w.finish(kRunStatusComplete);
}

}  // namespace cuprobe::fuzz
