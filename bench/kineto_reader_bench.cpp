// The Kineto importer alone (no analysis), with each reader of traceEvents side by side in one
// run: the JSON cursor and simdjson's On-Demand API over bounded windows (simd_window.h). One
// thread (no split), `rounds` interleaved runs each; medians of wall and process CPU time, and how
// many events simdjson read. Usage: kineto_reader_bench TRACE.json[.gz|.xz] [rounds] [cursor|simdjson]
// (the third argument runs that side alone, e.g. under perf).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/percentile.h"
#include "import/kineto_json/kineto_importer.h"

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: kineto_reader_bench TRACE.json[.gz|.xz] [rounds]\n");
    return 2;
  }
  std::string path = argv[1];
  int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  if (!cuprobe::kineto_simdjson_built()) std::printf("(simdjson not built in: both sides are the cursor)\n");
  struct Side {
    const char* name;
    cuprobe::KinetoReader reader;
    std::vector<double> wall, cpu;
    std::string simd_events = "0";
    std::size_t gpu = 0, cpu_ranges = 0;
  };
  std::vector<Side> sides = {{"cursor", cuprobe::KinetoReader::kCursor, {}, {}},
                             {"simdjson windows", cuprobe::KinetoReader::kSimdjson, {}, {}}};
  if (argc > 3) {
    std::string only = argv[3];
    std::erase_if(sides, [&](const Side& s) {
      return only != (s.reader == cuprobe::KinetoReader::kCursor ? "cursor" : "simdjson");
    });
  }
  try {
    for (int r = 0; r < rounds; ++r) {
      for (Side& side : sides) {
        double c0 = cpu_seconds();
        auto t0 = std::chrono::steady_clock::now();
        cuprobe::Profile p = cuprobe::import_kineto_json(path, UINT64_MAX, side.reader);
        side.wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        side.cpu.push_back(cpu_seconds() - c0);
        side.gpu = p.gpu.size();
        side.cpu_ranges = p.cpu.size();
        for (const auto& [k, v] : p.metadata) {
          if (k == "events_read_by_simdjson") side.simd_events = v;
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kineto_reader_bench: %s\n", e.what());
    return 1;
  }
  std::printf("%-18s %10s %10s %12s %12s %s\n", "reader", "wall med", "CPU med", "GPU acts", "CPU ranges",
              "events read by simdjson");
  for (const Side& side : sides) {
    std::printf("%-18s %9.3fs %9.3fs %12zu %12zu %s\n", side.name, cuprobe::percentile(side.wall, 50),
                cuprobe::percentile(side.cpu, 50), side.gpu, side.cpu_ranges, side.simd_events.c_str());
  }
  return 0;
}
