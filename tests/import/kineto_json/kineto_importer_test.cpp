#include "import/kineto_json/kineto_importer.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "import/kineto_json/compress_for_test.h"
#include "import/kineto_json/kineto_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

const char* kKernel =
    R"J({"ph": "X", "cat": "kernel", "name": "nvjet_sm90_tst_64x8", "pid": 0, "tid": 7, "ts": 10.5, "dur": 2.25,
        "args": {"device": 0, "stream": 7, "correlation": 42, "grid": [4, 18, 1], "block": [384, 1, 1],
                 "registers per thread": 168, "shared memory": 164308}})J";

TEST(KinetoImporter, ReadsKernelsAndAppliesTheBaseTimeGivenAfterTheEvents) {
  Profile p = test::import_kineto_text(std::string(R"J({"traceEvents": [)J") + kKernel +
                                       R"J(], "baseTimeNanoseconds": 1000000})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  const auto& k = p.gpu[0];
  EXPECT_EQ(p.name_of(k.name), "nvjet_sm90_tst_64x8");
  EXPECT_EQ(k.start, 1000000 + 10500);
  EXPECT_EQ(k.end, 1000000 + 12750);
  EXPECT_EQ(k.correlation, 42);
  EXPECT_EQ(k.stream, 7);
  EXPECT_EQ(k.grid[1], 18);
  EXPECT_EQ(k.block[0], 384);
  EXPECT_EQ(k.registers_per_thread, 168);
  EXPECT_EQ(k.shared_memory_bytes, 164308);
}

TEST(KinetoImporter, KeysInAnyOrderAndAbsoluteIntegerTimestamps) {
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
    {"args": {"correlation": 7}, "dur": 3, "ts": 1700000000000000, "name": "k", "cat": "kernel", "ph": "X"},
    {"ts": 1699999999999990, "correlation": 1, "ph": "X", "dur": 5, "cat": "cuda_runtime", "name": "cudaLaunchKernel",
     "args": {"correlation": 7}, "pid": 1, "tid": 1}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  ASSERT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].start, 1700000000000000000);
  EXPECT_EQ(p.cpu[0].kind, CpuRangeKind::kRuntime);
  EXPECT_EQ(p.cpu[0].correlation, 7);
}

// with_stack=True: only the user's frames are kept, in either key order (name before or after cat).
TEST(KinetoImporter, KeepsTheUsersPythonFramesOnly) {
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "python_function", "name": "zoo/model.py(40): forward", "pid": 1, "tid": 2, "ts": 10,
     "dur": 50, "args": {"Python parent id": 1, "Python id": 2}},
    {"ph": "X", "cat": "python_function", "name": "torch/nn/modules/module.py(1775): _call_impl", "pid": 1, "tid": 2,
     "ts": 11, "dur": 40, "args": {"Python id": 3}},
    {"ph": "X", "cat": "python_function", "name": "<built-in method to of Tensor object at 0x7f>", "pid": 1,
     "tid": 2, "ts": 12, "dur": 4},
    {"name": "contextlib.py(141): __exit__", "ph": "X", "cat": "python_function", "pid": 1, "tid": 2, "ts": 20,
     "dur": 1},
    {"name": "run.py(9): <module>", "ph": "X", "cat": "python_function", "pid": 1, "tid": 2, "ts": 1, "dur": 99}
  ]})J");
  ASSERT_EQ(p.cpu.size(), 2u);
  EXPECT_EQ(p.name_of(p.cpu[0].name), "run.py(9): <module>");
  EXPECT_EQ(p.name_of(p.cpu[1].name), "zoo/model.py(40): forward");
  for (const CpuRange& r : p.cpu) {
    EXPECT_EQ(r.kind, CpuRangeKind::kPython);
    EXPECT_EQ(r.tid, 2);
  }
  EXPECT_EQ(p.cpu[1].start, 10'000);
  EXPECT_EQ(p.cpu[1].end, 60'000);
}

TEST(KinetoImporter, ReadsTheBareArrayFormAndOldCategoryNames) {
  Profile p = test::import_kineto_text(R"J([{"ph": "X", "cat": "Kernel", "name": "k", "ts": 1, "dur": 1},
                              {"ph": "X", "cat": "Memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "ts": 3, "dur": 1,
                               "args": {"bytes": 4096}}])J");
  ASSERT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.gpu[1].kind, GpuActivityKind::kMemcpy);
  EXPECT_EQ(p.gpu[1].memcpy_kind, MemcpyKind::kDtoH);
  EXPECT_EQ(p.gpu[1].bytes, 4096);
}

TEST(KinetoImporter, ReadsRankDevicesAndIgnoresUnusedEvents) {
  Profile p = test::import_kineto_text(R"J({"distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
    "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "numSms": 132, "computeMajor": 9, "totalGlobalMem": 150109880320}],
    "traceEvents": [{"ph": "X", "cat": "python_function", "name": "x", "ts": 1, "dur": 1, "args": {"deep": [[[{}]]]}},
                    {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "t"}},
                    {"ph": "f", "id": 1, "cat": "ac2g", "name": "ac2g", "ts": 1}]})J");
  EXPECT_EQ(p.rank, 3);
  EXPECT_EQ(p.world_size, 4);
  ASSERT_EQ(p.devices.size(), 1u);
  EXPECT_EQ(p.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(p.devices[0].sm_count, 132);
  EXPECT_TRUE(p.gpu.empty());
  EXPECT_EQ(p.stats.events, 3);
}

TEST(KinetoImporter, OddEventsAreCountedNotFatal) {
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "neg", "ts": 5, "dur": -1},
    {"ph": "X", "cat": "kernel", "name": "zero", "ts": 5, "dur": 0},
    {"ph": "X", "cat": "kernel", "name": "bad )J"
                                       "\xff"
                                       R"J( byte", "ts": 6, "dur": 1},
    {"ph": "i", "cat": "kernel", "name": "instant", "ts": 6}]})J");
  ASSERT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.name_of(p.gpu[1].name), "bad \xEF\xBF\xBD byte");
  EXPECT_EQ(p.stats.count(ImportStat::kNegativeDuration), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kZeroDurationGpu), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kInvalidUtf8), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kNotCompleteEvent), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kNoCorrelation), 2);
  // The first example, with the byte offset of its event.
  EXPECT_EQ(p.stats.get(ImportStat::kNegativeDuration).example, "neg");
  EXPECT_EQ(p.stats.get(ImportStat::kNegativeDuration).offset, 22u);
  EXPECT_EQ(p.stats.problems(), 3);  // negative duration, invalid UTF-8, not an 'X' event
}

// issue 12 item 1: tolerant about fields, with strict accounting.
TEST(KinetoImporter, NumbersWrittenAsStringsAreRead) {
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "ts": "10", "dur": 2,
     "args": {"bytes": "256", "stream": "7", "device": 0, "correlation": 3}}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].bytes, 256);
  EXPECT_EQ(p.gpu[0].stream, 7);
  EXPECT_EQ(p.gpu[0].start, 10000);
  EXPECT_EQ(p.stats.count(ImportStat::kNumberAsString), 3);
  EXPECT_EQ(p.stats.get(ImportStat::kNumberAsString).example, "ts = \"10\"");
}

TEST(KinetoImporter, MistypedOptionalFieldsAreIgnoredAndCounted) {
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused", "ts": 1, "dur": 2, "args": {"grid": "grid(100,)"}},
    {"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2,
     "args": {"grid": [1, "x", 1], "block": {"x": 1}, "stream": null, "correlation": 1.5}}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  ASSERT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.stats.count(ImportStat::kFieldMistyped), 5);
  EXPECT_EQ(p.stats.get(ImportStat::kFieldMistyped).example, "args.grid = \"grid(100,)\"");
  EXPECT_EQ(p.gpu[0].correlation, -1);
}

TEST(KinetoImporter, EventsWithoutWhatCuprobeNeedsAreSkippedAndCounted) {
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "no_ts", "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "bad_ts", "ts": "soon", "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "huge_ts", "ts": 1e999, "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 1}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.stats.count(ImportStat::kEventMissingField), 3);
  EXPECT_EQ(p.stats.get(ImportStat::kEventMissingField).example, "no_ts (no usable \"ts\")");
  EXPECT_EQ(p.stats.get(ImportStat::kEventMissingField).offset, 22u);
}

TEST(KinetoImporter, TimesThatWouldOverflowAreDroppedAndCounted) {
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "huge", "ts": 9000000000000000, "dur": 9000000000000000},
    {"ph": "X", "cat": "kernel", "name": "far", "ts": 4700000000000000, "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "ok", "ts": 10, "dur": 1}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.stats.count(ImportStat::kTimeOutOfRange), 2);
  EXPECT_EQ(p.stats.get(ImportStat::kTimeOutOfRange).example, "huge");
}

TEST(KinetoImporter, ABaseTimeThatWouldOverflowDropsTheEventsItMoves) {
  Profile p = test::import_kineto_text(R"J({"baseTimeNanoseconds": 4611686018427387000, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "late", "ts": 1000, "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "early", "ts": -1000, "dur": 1}]})J");
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].start, 4611686018427387000 - 1000000);
  EXPECT_EQ(p.stats.count(ImportStat::kTimeOutOfRange), 1);
}

TEST(KinetoImporter, ARankBeyondIntIsCountedNotWrapped) {
  Profile p = test::import_kineto_text(
      R"J({"distributedInfo": {"rank": 99999999999999, "world_size": -2}, "traceEvents": []})J");
  EXPECT_FALSE(p.rank);
  EXPECT_FALSE(p.world_size);
  EXPECT_EQ(p.stats.count(ImportStat::kValueOutOfRange), 2);
  EXPECT_EQ(p.stats.get(ImportStat::kValueOutOfRange).example, "distributedInfo.rank = 99999999999999");
}

TEST(KinetoImporter, ErrorMessagesEscapeRawBytesAndStayOnOneLine) {
  EXPECT_EQ(test::kineto_import_error("{\"traceEvents\": [{}\x01]}"),
            "t.json: byte 19: invalid JSON: expected ',', found '\\x01'");
  EXPECT_EQ(test::kineto_import_error("{\"traceEvents\": [{}\xff]}"),
            "t.json: byte 19: invalid JSON: expected ',', found '\xEF\xBF\xBD'");
}

TEST(KinetoImporter, BadInputIsOneLineWithFileAndOffset) {
  EXPECT_EQ(test::kineto_import_error(""), "t.json: byte 0: empty file: not a trace");
  EXPECT_EQ(test::kineto_import_error(R"J({"schemaVersion": 1})J"),
            "t.json: byte 0: not a Kineto/Chrome trace: no \"traceEvents\" array");
  EXPECT_EQ(test::kineto_import_error(R"J({"traceEvents": {}})J"), "t.json: byte 16: \"traceEvents\" must be an array");
  EXPECT_EQ(test::kineto_import_error(R"J({"traceEvents": [1]})J"), "t.json: byte 17: trace event is not an object");
  EXPECT_NE(test::kineto_import_error(R"J({"traceEvents": [{"ph": "X", "cat": "kernel")J").find("truncated"),
            std::string::npos);
  EXPECT_NE(test::kineto_import_error(R"J({"traceEvents": []} trailing)J").find("after the end"), std::string::npos);
  EXPECT_NE(test::kineto_import_error("\x89PNG\r\n").find("not a JSON trace"), std::string::npos);
  EXPECT_NE(test::kineto_import_error(R"J({"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 1.5x, "dur": 1}]})J")
                .find("expected ','"),
            std::string::npos);
}

using test::gzip;
using test::xz;

TEST(KinetoImporter, ReadsXzAndRejectsATruncatedOne) {
  std::string dir = test::temp_dir();
  std::string packed = xz(std::string(R"J({"traceEvents": [)J") + kKernel + "]}");
  std::ofstream(dir + "/t.json.xz", std::ios::binary) << packed;
  std::ofstream(dir + "/cut.json.xz", std::ios::binary) << packed.substr(0, packed.size() - 20);
  EXPECT_EQ(import_kineto_json(dir + "/t.json.xz").gpu.size(), 1u);
  try {
    import_kineto_json(dir + "/cut.json.xz");
    FAIL() << "accepted a truncated xz file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("xz"), std::string::npos) << e.what();
  }
}

TEST(KinetoImporter, TruncatedGzipIsAnErrorNotAPartialProfile) {
  std::string dir = test::temp_dir();
  std::string text = std::string(R"J({"traceEvents": [)J") + kKernel + "]}";
  std::string gz = gzip(text);
  std::ofstream(dir + "/whole.json.gz", std::ios::binary) << gz;
  std::ofstream(dir + "/cut.json.gz", std::ios::binary) << gz.substr(0, gz.size() / 2);
  EXPECT_EQ(import_kineto_json(dir + "/whole.json.gz").gpu.size(), 1u);
  try {
    import_kineto_json(dir + "/cut.json.gz");
    FAIL() << "accepted a truncated gzip file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated gzip"), std::string::npos) << e.what();
  }
}

TEST(KinetoImporter, ImportsTheBundledTrace) {
  Profile p = import_kineto_json(test::data_path("mla_fp8pool_fullcast_small.json.gz"));
  EXPECT_EQ(p.gpu.size(), 240u);
  EXPECT_EQ(p.stats.events, 2556);
  ASSERT_FALSE(p.devices.empty());
  EXPECT_EQ(p.devices[0].name, "NVIDIA H200");
  EXPECT_TRUE(std::is_sorted(p.gpu.begin(), p.gpu.end(),
                             [](const GpuActivity& a, const GpuActivity& b) { return a.start < b.start; }));
}

}  // namespace
}  // namespace cuprobe

namespace cuprobe {
namespace {

std::string many_events(int n, const std::string& extra_name) {
  std::string text = R"J({"schemaVersion": 1, "traceEvents": [)J";
  for (int i = 0; i < n; ++i) {
    if (i) text += ",\n  ";
    text += R"J({"ph": "X", "cat": "kernel", "name": "k)J" + std::to_string(i % 7) + extra_name + R"J(", "ts": )J" +
            std::to_string(i * 10) + R"J(.5, "dur": 3, "args": {"correlation": )J" + std::to_string(i) + "}}";
  }
  return text + R"J(], "baseTimeNanoseconds": 5000})J";
}

TEST(KinetoImporter, ParsingInTwoPartsGivesTheSameProfile) {
  std::string dir = test::temp_dir();
  // A name with "}, {" inside makes some guessed boundaries wrong; the result must not change.
  for (const std::string& extra : {std::string(), std::string("}, {\\\"ph\\\": 1}")}) {
    std::ofstream(dir + "/t.json") << many_events(4000, extra);
    Profile split = import_kineto_json(dir + "/t.json", 0);
    Profile whole = import_kineto_json(dir + "/t.json", UINT64_MAX);
    ASSERT_EQ(split.gpu.size(), 4000u);
    ASSERT_EQ(whole.gpu.size(), 4000u);
    for (std::size_t i = 0; i < split.gpu.size(); ++i) {
      ASSERT_EQ(split.gpu[i].start, whole.gpu[i].start);
      ASSERT_EQ(split.gpu[i].correlation, whole.gpu[i].correlation);
      ASSERT_EQ(split.name_of(split.gpu[i].name), whole.name_of(whole.gpu[i].name));
    }
    EXPECT_EQ(split.gpu[0].start, 5000 + 500);
    bool parts = false;
    for (const auto& [k, v] : split.metadata) parts |= k == "parsed_in_parts";
    if (extra.empty()) {
      EXPECT_TRUE(parts) << "the split point was not adopted";
    }
  }
}

TEST(KinetoImporter, AnErrorInTheSecondHalfIsReportedAtItsOffset) {
  std::string dir = test::temp_dir();
  std::string text = many_events(4000, "");
  std::size_t bad = text.find(R"J("ts": 30000.5)J");
  ASSERT_NE(bad, std::string::npos);
  text.replace(bad, 13, R"J("ts": 30000.5x)J");
  std::ofstream(dir + "/t.json") << text;
  try {
    import_kineto_json(dir + "/t.json", 0);
    FAIL() << "accepted a bad timestamp";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir + "/t.json: byte " + std::to_string(bad + 13) + ": invalid JSON: expected ',', found 'x'");
  }
}

}  // namespace
}  // namespace cuprobe
