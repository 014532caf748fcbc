// The other forms of the Chrome trace format and of Kineto's output (issue 12
// item 6): display units, numbers as strings, ids beyond 2^53, 'B'/'E' pairs,
// several GPUs and processes in one file, copies' directions on ROCm, and
// Kineto's CUPTI range-profiler traces.
#include <gtest/gtest.h>

#include <algorithm>

#include "import/kineto_json/kineto_importer.h"
#include "import/kineto_json/memcpy_direction.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

Profile import_text(const std::string& text) {
  auto source = memory_byte_source(text);
  return import_kineto_json(*source, "t.json");
}

std::string metadata(const Profile& p, const std::string& key) {
  for (const auto& [k, v] : p.metadata) {
    if (k == key) return v;
  }
  return "";
}

const GpuActivity& gpu_named(const Profile& p, std::string_view name) {
  auto it = std::find_if(p.gpu.begin(), p.gpu.end(), [&](const GpuActivity& a) { return p.name_of(a.name) == name; });
  EXPECT_NE(it, p.gpu.end()) << name;
  return *it;
}

const CpuRange& cpu_named(const Profile& p, std::string_view name) {
  auto it = std::find_if(p.cpu.begin(), p.cpu.end(), [&](const CpuRange& r) { return p.name_of(r.name) == name; });
  EXPECT_NE(it, p.cpu.end()) << name;
  return *it;
}

TEST(KinetoFormatVariants, DisplayTimeUnitIsOnlyADisplayHint) {
  // The Chrome trace format's displayTimeUnit ("ms" or "ns") says how a viewer shows times;
  // "ts" and "dur" stay microseconds, here with the nanosecond fraction Kineto writes.
  for (const char* unit : {"ns", "ms"}) {
    Profile p = import_text(std::string(R"J({"displayTimeUnit": ")J") + unit + R"J(", "traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "k", "ts": 1764554400123456.789, "dur": 2.001}]})J");
    ASSERT_EQ(p.gpu.size(), 1u) << unit;
    EXPECT_EQ(p.gpu[0].start, 1764554400123456789) << unit;  // beyond 2^53: exact, never through double
    EXPECT_EQ(p.gpu[0].duration(), 2001) << unit;
    EXPECT_EQ(metadata(p, "displayTimeUnit"), unit);
  }
}

TEST(KinetoFormatVariants, TimestampsAndIdsWrittenAsStrings) {
  Profile p = import_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": "4242", "tid": "17",
     "ts": "100.5", "dur": "3", "args": {"correlation": "9"}},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": "110", "dur": "2.25",
     "args": {"correlation": "9", "device": "1", "stream": "7"}},
    {"ph": "X", "cat": "user_annotation", "name": "span", "pid": "Spans", "tid": "Test trace", "ts": 90, "dur": 50},
    {"ph": "X", "cat": "user_annotation", "name": "other span", "pid": "Traces", "tid": "Test trace", "ts": 90, "dur": 50}
  ]})J");
  const CpuRange& launch = cpu_named(p, "cudaLaunchKernel");
  EXPECT_EQ(launch.pid, 4242);
  EXPECT_EQ(launch.tid, 17);
  EXPECT_EQ(launch.start, 100500);
  EXPECT_EQ(launch.end, 103500);
  EXPECT_EQ(launch.correlation, 9);
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].start, 110000);
  EXPECT_EQ(p.gpu[0].duration(), 2250);
  EXPECT_EQ(p.gpu[0].device, 1);
  EXPECT_EQ(p.gpu[0].correlation, 9);
  // pid, tid, ts, dur, correlation of the launch; ts, dur, correlation, device, stream of the kernel.
  EXPECT_EQ(p.stats.count(ImportStat::kNumberAsString), 10);
  // Named rows (Kineto's "Spans") get ids of their own, below -1, the same name the same id.
  const CpuRange& span = cpu_named(p, "span");
  const CpuRange& other = cpu_named(p, "other span");
  EXPECT_LT(span.pid, -1);
  EXPECT_NE(span.pid, other.pid);
  EXPECT_EQ(span.tid, other.tid);
}

TEST(KinetoFormatVariants, AGpuRowNamedInsteadOfNumberedHasNoDevice) {
  Profile p = import_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": "GPU rows", "tid": "stream 7", "ts": 1, "dur": 1}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].device, -1);
  EXPECT_LT(p.gpu[0].stream, -1);  // the named tid's id
}

TEST(KinetoFormatVariants, PyTorch18NamesItsRowsAndWritesExternalIdInLowerCase) {
  // From a PyTorch 1.8 trace (pytorch/kineto tb_plugin/test/gpu_metrics_input.json): thread ids as
  // strings, GPU rows named "stream 7", capitalised categories, "external id".
  Profile p = import_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "aten::mm", "pid": 24572, "tid": "24610",
     "ts": 1621401187230889, "dur": 235, "args": {"Device": 24572, "External id": 107}},
    {"ph": "X", "cat": "Kernel", "name": "volta_sgemm_128x32_nt", "pid": 0, "tid": "stream 7",
     "ts": 1621401187231100, "dur": 3,
     "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 482, "external id": 107}}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].external_id, 107);
  EXPECT_EQ(p.gpu[0].stream, 7);
  EXPECT_EQ(p.gpu[0].device, 0);
  ASSERT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.cpu[0].external_id, 107);
  EXPECT_EQ(p.cpu[0].tid, 24610);
}

TEST(KinetoFormatVariants, IdsBeyondTwoToThe53AreExact) {
  // 2^53 + 1 is not a double: read through one it would become 2^53 and link the wrong kernel.
  Profile p = import_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1,
     "args": {"correlation": 9007199254740993, "External id": 9223372036854775807}},
    {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 5, "dur": 1,
     "args": {"correlation": 9007199254740993}},
    {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 7, "dur": 1,
     "args": {"correlation": 9007199254740992}},
    {"ph": "X", "cat": "kernel", "name": "c", "pid": 0, "tid": 7, "ts": 9, "dur": 1,
     "args": {"correlation": 18446744073709551615}}]})J");
  EXPECT_EQ(gpu_named(p, "a").correlation, 9007199254740993);
  EXPECT_EQ(gpu_named(p, "b").correlation, 9007199254740992);
  EXPECT_EQ(cpu_named(p, "cudaLaunchKernel").external_id, INT64_MAX);
  EXPECT_EQ(gpu_named(p, "c").correlation, -1);  // beyond 64 bits: counted, not wrapped
  EXPECT_EQ(p.stats.count(ImportStat::kFieldMistyped), 1);
}

TEST(KinetoFormatVariants, BeginEndPairsMatchPerThread) {
  Profile p = import_text(R"J([
    {"ph": "B", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "args": {"External id": 3}},
    {"ph": "B", "cat": "python_function", "name": "forward", "pid": 1, "tid": 1, "ts": 11},
    {"ph": "B", "cat": "user_annotation", "name": "inner", "pid": 1, "tid": 1, "ts": 12},
    {"ph": "B", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 2, "ts": 13},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 14},
    {"ph": "E", "cat": "python_function", "name": "forward", "pid": 1, "tid": 1, "ts": 15},
    {"ph": "B", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 16, "args": {"correlation": 5}},
    {"ph": "E", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 18.5},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 20},
    {"ph": "E", "pid": 1, "tid": 3, "ts": 21},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 22, "dur": 1}])J");
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].start, 16000);
  EXPECT_EQ(p.gpu[0].end, 18500);
  EXPECT_EQ(p.gpu[0].correlation, 5);
  ASSERT_EQ(p.cpu.size(), 3u);  // mm, inner, relu; aten::add never ends
  const CpuRange& mm = cpu_named(p, "aten::mm");
  EXPECT_EQ(mm.start, 10000);
  EXPECT_EQ(mm.end, 20000);
  EXPECT_EQ(mm.external_id, 3);
  EXPECT_EQ(cpu_named(p, "inner").end, 14000);
  EXPECT_EQ(p.stats.count(ImportStat::kUnmatchedBegin), 1);
  EXPECT_EQ(p.stats.get(ImportStat::kUnmatchedBegin).example, "aten::add");
  EXPECT_EQ(p.stats.count(ImportStat::kUnmatchedEnd), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kNotCompleteEvent), 0);
}

TEST(KinetoFormatVariants, BeginEndPairsSplitAcrossTwoThreadsMatchAsInOnePass) {
  // The fixture opens slices early and closes them late, so the two halves must join them.
  std::string path = test::data_path("format_begin_end.json");
  Profile one = import_kineto_json(path, UINT64_MAX);
  Profile two = import_kineto_json(path, 0);
  EXPECT_EQ(metadata(two, "parsed_in_parts"), "2");  // (KinetoParseInParts compares the rest)
  for (const Profile* p : {&one, &two}) {
    EXPECT_EQ(p->gpu.size(), 6u);
    EXPECT_EQ(p->cpu.size(), 6u + 6u + 1u);  // aten::mm pairs, launches, the step
    const CpuRange& step = cpu_named(*p, "ProfilerStep#1");
    EXPECT_EQ(step.start, 1000000);
    EXPECT_EQ(step.end, 1100000);
    EXPECT_EQ(cpu_named(*p, "aten::mm").end - cpu_named(*p, "aten::mm").start, 5000);
    EXPECT_EQ(p->stats.count(ImportStat::kUnmatchedBegin), 1);
    EXPECT_EQ(p->stats.count(ImportStat::kUnmatchedEnd), 1);
  }
}

TEST(KinetoFormatVariants, CompleteEventWithoutDurationIsSkippedAndCounted) {
  Profile p = import_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "no_dur", "pid": 0, "tid": 7, "ts": 5},
    {"ph": "X", "cat": "kernel", "name": "zero", "pid": 0, "tid": 7, "ts": 6, "dur": 0},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 7, "dur": 1}]})J");
  ASSERT_EQ(p.gpu.size(), 2u);  // a zero duration is a duration: kept, and counted as info
  EXPECT_EQ(p.stats.count(ImportStat::kEventMissingField), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kZeroDurationGpu), 1);
}

TEST(KinetoFormatVariants, SeveralGpusKeepTheirDevices) {
  Profile p = import_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 5, "dur": 1, "args": {"device": 0}},
    {"ph": "X", "cat": "kernel", "name": "b", "pid": 3, "tid": 7, "ts": 5, "dur": 1, "args": {"device": 3}},
    {"ph": "X", "cat": "kernel", "name": "c", "pid": 5, "tid": 9, "ts": 5, "dur": 1}]})J");
  EXPECT_EQ(gpu_named(p, "a").device, 0);
  EXPECT_EQ(gpu_named(p, "b").device, 3);
  EXPECT_EQ(gpu_named(p, "c").device, 5);  // no "device": Kineto's GPU rows use the device as pid
}

TEST(KinetoFormatVariants, CorrelationIdsRepeatedAcrossProcessesLinkWithinEachProcess) {
  Profile p = import_kineto_json(test::data_path("format_two_processes.json"));
  // Both processes numbered their launches 1, 2, 3; process 100 drives GPU 0, process 200 GPU 1.
  for (const auto& a : p.gpu) {
    const CpuRange* launch = nullptr;
    for (const auto& r : p.cpu) {
      if (r.kind == CpuRangeKind::kRuntime && r.correlation == a.correlation) {
        EXPECT_EQ(launch, nullptr) << "two launches for " << p.name_of(a.name);
        launch = &r;
      }
    }
    ASSERT_NE(launch, nullptr) << p.name_of(a.name);
    EXPECT_EQ(launch->pid, a.device == 0 ? 100 : 200) << p.name_of(a.name);
    // External ids repeat across the processes too: each kernel keeps its own process's operator.
    const CpuRange* op = nullptr;
    for (const auto& r : p.cpu) {
      if (r.kind == CpuRangeKind::kOperator && r.external_id == a.external_id) op = &r;
    }
    ASSERT_NE(op, nullptr) << p.name_of(a.name);
    EXPECT_EQ(op->pid, launch->pid) << p.name_of(a.name);
  }
  EXPECT_EQ(p.stats.count(ImportStat::kCorrelationPerProcess), 2);  // ids 1 and 2 are in both
}

TEST(KinetoFormatVariants, CopyDirectionsAsTheRocmTracerNamesThem) {
  EXPECT_EQ(memcpy_kind_from_name("Memcpy HtoD (Pageable -> Device)"), MemcpyKind::kHtoD);
  EXPECT_EQ(memcpy_kind_from_name("Memcpy DtoD"), MemcpyKind::kDtoD);
  EXPECT_EQ(memcpy_kind_from_name("CopyHostToDevice"), MemcpyKind::kHtoD);
  EXPECT_EQ(memcpy_kind_from_name("CopyDeviceToHost"), MemcpyKind::kDtoH);
  EXPECT_EQ(memcpy_kind_from_name("CopyDeviceToDevice"), MemcpyKind::kDtoD);
  EXPECT_EQ(memcpy_kind_from_name("hipMemcpyDtoHAsync"), MemcpyKind::kDtoH);
  EXPECT_EQ(memcpy_kind_from_name("hipMemcpyPeerAsync"), MemcpyKind::kPtoP);
  EXPECT_EQ(memcpy_kind_from_name("cuMemcpyHtoDAsync_v2"), MemcpyKind::kHtoD);
  EXPECT_EQ(memcpy_kind_from_name("hipMemcpyWithStream"), MemcpyKind::kUnknown);
  // A copy named without a direction takes it from the call that started it.
  Profile p = import_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "hipMemcpyDtoHAsync", "pid": 1, "tid": 1, "ts": 1, "dur": 1,
     "args": {"correlation": 4}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy ? (? -> ?)", "pid": 2, "tid": 0, "ts": 5, "dur": 1,
     "args": {"correlation": 4, "device": 2}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy ? (? -> ?)", "pid": 2, "tid": 0, "ts": 7, "dur": 1,
     "args": {"correlation": 5, "device": 2}}]})J");
  ASSERT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.gpu[0].memcpy_kind, MemcpyKind::kDtoH);
  EXPECT_EQ(p.gpu[1].memcpy_kind, MemcpyKind::kUnknown);
}

TEST(KinetoFormatVariants, RangeProfilerRangesBecomeKernelsWithTheirCounters) {
  Profile p = load_profile(test::data_path("kineto_range_profiler.json"));
  ASSERT_EQ(p.gpu.size(), 3u);
  EXPECT_EQ(p.name_of(p.gpu[0].name),
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
            "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, "
            "std::array<char*, 1ul>)");
  for (const auto& a : p.gpu) EXPECT_EQ(a.kind, GpuActivityKind::kKernel);
  ASSERT_EQ(p.counters.size(), 9u);  // three counters per range
  for (const auto& c : p.counters) {
    auto it = std::find_if(p.gpu.begin(), p.gpu.end(), [&](const GpuActivity& a) { return a.start == c.start; });
    ASSERT_NE(it, p.gpu.end());
    EXPECT_EQ(c.end, it->end);
    EXPECT_EQ(c.device, 0);
  }
  auto value = [&](std::size_t range, std::string_view metric) {
    for (const auto& c : p.counters) {
      if (c.start == p.gpu[range].start && p.name_of(c.metric) == metric) return c.value;
    }
    return -1.0;
  };
  EXPECT_EQ(value(1, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"), 2097152.0);
  EXPECT_EQ(value(2, "sm__inst_executed_pipe_tensor.sum"), 1.5e3);
  EXPECT_EQ(p.stats.count(ImportStat::kNoCorrelation), 0);
  ASSERT_EQ(p.notices.size(), 1u);
  EXPECT_NE(p.notices[0].find("3 ranges"), std::string::npos) << p.notices[0];
}

}  // namespace
}  // namespace cuprobe
