#include "collect/record/record_connection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "collect/device/gpu_uuid.h"
#include "import/load_profiles.h"
#include "import/run_file/run_file_importer.h"
#include "store/run_file_schema.h"
#include "store/sqlite_db.h"
#include "support/run_cuprobe.h"
#include "wire/unhandled_kinds.h"

namespace cuprobe {
namespace {

constexpr std::int64_t kOffset = 1'700'000'000'000'000'000;  // realtime - cupti

std::string stream_for_one_process() {
  std::string s;
  wire::append_frame(s, wire::Type::kHello,
                     wire::Hello{wire::kMagic, wire::kVersion, 0, 130001, 0, 77, 1, kOffset + 50, 50},
                     "python3 serve.py");
  wire::append_frame(s, wire::Type::kDevice, wire::Device{0, 132, 9, 0, 1ll << 37}, "NVIDIA H200");
  wire::append_frame(s, wire::Type::kString, wire::String{1, 0}, "_ZN2at6native18elementwise_kernelILi128ELi2EEEvi");
  wire::append_frame(s, wire::Type::kString, wire::String{2, 1}, "decode_step");
  wire::Kernel k{};
  k.start = 1000;
  k.end = 3000;
  k.name_id = 1;
  k.device = 0;
  k.stream = 7;
  k.grid[0] = 64;
  k.block[0] = 128;
  k.registers = 32;
  k.static_shared = 1024;
  k.dynamic_shared = 2048;
  k.correlation = 11;
  k.graph_id = 0;
  wire::append_frame(s, wire::Type::kKernel, k);
  k.start = 5000;
  k.end = 6000;
  k.graph_id = 3;
  wire::append_frame(s, wire::Type::kKernel, k);
  wire::Memcpy m{};
  m.start = 3100;
  m.end = 3500;
  m.bytes = 4096;
  m.kind = static_cast<std::uint8_t>(MemcpyKind::kDtoH);
  wire::append_frame(s, wire::Type::kMemcpy, m);
  wire::Range r{};
  r.start = 900;
  r.end = 6500;
  r.tid = 5;
  r.correlation = -1;
  r.name_id = 2;
  wire::append_frame(s, wire::Type::kRange, r);
  wire::append_frame(s, wire::Type::kLoss,
                     wire::Loss{3, static_cast<std::uint32_t>(wire::LossReason::kCuptiDropped), 0});
  return s;
}

TEST(RecordConnection, WritesRowsOnTheRealtimeClock) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(true);
    RecordConnection c(writer, window);
    std::string s = stream_for_one_process();
    wire::append_frame(s, wire::Type::kGoodbye, wire::Goodbye{1, 4});
    ASSERT_TRUE(c.on_bytes(s.data(), s.size(), 123));
    EXPECT_EQ(c.pid(), 77);
    EXPECT_TRUE(c.said_goodbye());
    c.on_closed(456);
    writer.finish(kRunStatusComplete);
  }
  Profile p = import_run_file(path);
  EXPECT_TRUE(p.complete);
  ASSERT_EQ(p.gpu.size(), 3u);
  const GpuActivity& k = p.gpu[0];
  EXPECT_EQ(k.start, kOffset + 1000);
  EXPECT_EQ(k.end, kOffset + 3000);
  EXPECT_EQ(p.name_of(k.name), "void at::native::elementwise_kernel<128, 2>(int)");
  EXPECT_EQ(k.grid[0], 64);
  EXPECT_EQ(k.shared_memory_bytes, 3072);
  EXPECT_EQ(k.graph_id, -1);
  EXPECT_EQ(p.gpu[2].graph_id, 3);
  EXPECT_EQ(p.gpu[1].kind, GpuActivityKind::kMemcpy);
  EXPECT_EQ(p.gpu[1].memcpy_kind, MemcpyKind::kDtoH);
  ASSERT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.name_of(p.cpu[0].name), "decode_step");
  EXPECT_EQ(p.cpu[0].kind, CpuRangeKind::kAnnotation);
  ASSERT_EQ(p.devices.size(), 1u);
  EXPECT_EQ(p.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(p.stats.count(ImportStat::kLostRecords), 3);
}

// Two processes with different CUDA_VISIBLE_DEVICES both call their GPU "device 0":
// rows land on cuprobe's ordinal for the physical GPU, which the counter samples use.
TEST(RecordConnection, DeviceNumbersAreMappedThroughTheGpuUuid) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  std::uint8_t uuid_a[16] = {0x8c, 0x6f, 0x0d, 0x1e, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::uint8_t uuid_b[16] = {0x11, 0x22, 0x33, 0x44, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13};
  GpuOrdinals ordinals{{format_gpu_uuid(uuid_a), 3}, {format_gpu_uuid(uuid_b), 5}};
  auto one_process = [&](std::int64_t pid, const std::uint8_t* uuid) {
    std::string s;
    wire::append_frame(s, wire::Type::kHello,
                       wire::Hello{wire::kMagic, wire::kVersion, 0, 130001, 0, pid, 1, kOffset, 0}, "worker");
    wire::Device d{0, 132, 9, 0, 1ll << 37, {}};
    std::memcpy(d.uuid, uuid, 16);
    wire::append_frame(s, wire::Type::kDevice, d, "NVIDIA H200");
    wire::append_frame(s, wire::Type::kString, wire::String{1, 0}, "k");
    wire::Kernel k{};
    k.start = 10;
    k.end = 20;
    k.name_id = 1;
    k.device = 0;
    wire::append_frame(s, wire::Type::kKernel, k);
    k.device = 2;  // a device without a Device record keeps its own number
    wire::append_frame(s, wire::Type::kKernel, k);
    return s;
  };
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(true);
    RecordConnection a(writer, window, ordinals), b(writer, window, ordinals);
    std::string sa = one_process(10, uuid_a), sb = one_process(11, uuid_b);
    ASSERT_TRUE(a.on_bytes(sa.data(), sa.size(), 1));
    ASSERT_TRUE(b.on_bytes(sb.data(), sb.size(), 1));
    writer.finish(kRunStatusComplete);
  }
  Profile p = import_run_file(path);
  std::vector<int> devices;
  for (const auto& k : p.gpu) devices.push_back(k.device);
  std::sort(devices.begin(), devices.end());
  EXPECT_EQ(devices, (std::vector<int>{2, 2, 3, 5}));
  ASSERT_EQ(p.devices.size(), 2u);
  EXPECT_EQ(p.devices[0].id, 3);
  EXPECT_EQ(p.devices[1].id, 5);
  SqliteDb db(path, SqliteDb::Mode::kReadOnly);
  auto q = db.prepare("SELECT uuid FROM devices ORDER BY id");
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.text(0), "GPU-8c6f0d1e-0102-0304-0506-0708090a0b0c");
}

TEST(GpuUuid, FormatsLikeNvidiaSmiAndZeroIsUnknown) {
  std::uint8_t zero[16] = {};
  EXPECT_EQ(format_gpu_uuid(zero), "");
  std::uint8_t b[16] = {0xde, 0xad, 0xbe, 0xef, 0, 1, 0x20, 0x30, 0xff, 0xfe, 1, 2, 3, 4, 5, 6};
  EXPECT_EQ(format_gpu_uuid(b), "GPU-deadbeef-0001-2030-fffe-010203040506");
}

TEST(RecordConnection, ProcessWithoutGoodbyeIsReported) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(true);
    RecordConnection c(writer, window);
    std::string s = stream_for_one_process();
    ASSERT_TRUE(c.on_bytes(s.data(), s.size() - 3, 1));  // cut mid-frame
    c.on_closed(2);
    writer.finish(kRunStatusComplete);
  }
  Profile p = import_run_file(path);
  bool saw_cut = false, saw_no_goodbye = false;
  for (const auto& line : p.stats.counted()) {
    if (line.text().find("cut mid-frame") != std::string::npos) saw_cut = true;
    if (line.text().find("without goodbye") != std::string::npos) saw_no_goodbye = true;
  }
  EXPECT_TRUE(saw_cut);
  EXPECT_TRUE(saw_no_goodbye);
}

// One process's stream with `notice` of `code`: the parent's messages and the run file as imported.
struct NoticeOutcome {
  std::vector<std::string> messages;
  Profile profile;
  std::string metadata(const std::string& key) const {
    auto it =
        std::find_if(profile.metadata.begin(), profile.metadata.end(), [&](const auto& kv) { return kv.first == key; });
    return it == profile.metadata.end() ? "<absent>" : it->second;
  }
  bool said(const std::string& text) const {
    return std::find(messages.begin(), messages.end(), "pid 77: " + text) != messages.end() &&
           std::find(profile.notices.begin(), profile.notices.end(), "library pid 77: " + text) !=
               profile.notices.end();
  }
};

NoticeOutcome record_notice(wire::NoticeCode code, const std::string& notice) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  NoticeOutcome out;
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(true);
    RecordConnection c(writer, window);
    std::string s = stream_for_one_process();
    wire::append_frame(s, wire::Type::kNotice, wire::Notice{static_cast<std::uint32_t>(code), 0}, notice);
    wire::append_frame(s, wire::Type::kGoodbye, wire::Goodbye{1, 4});
    EXPECT_TRUE(c.on_bytes(s.data(), s.size(), 123));
    c.on_closed(456);
    out.messages = c.take_messages();
    writer.finish(kRunStatusComplete);
  }
  out.profile = import_run_file(path);
  return out;
}

// The library says which clock timed the kernels; the run file keeps it as a
// notice and as metadata, and the parent prints it.
TEST(RecordConnection, KernelTimingIsKeptAsNoticeAndMetadata) {
  auto r = record_notice(wire::NoticeCode::kKernelTiming,
                         "software: hardware event tracing unavailable: CUPTI_ERROR_NOT_SUPPORTED");
  EXPECT_TRUE(r.said(
      "kernels timed by software instrumentation (hardware event tracing unavailable: CUPTI_ERROR_NOT_SUPPORTED)"))
      << ::testing::PrintToString(r.profile.notices);
  EXPECT_EQ(r.metadata("kernel_timing"), "software");
}

// --graphs events: which timed the graph launches, and why CUPTI did when events could not.
TEST(RecordConnection, GraphTimingIsKeptAsNoticeAndMetadata) {
  auto events = record_notice(wire::NoticeCode::kGraphTiming, "events");
  EXPECT_TRUE(events.said("graph launches timed by CUDA events on the launching stream"))
      << ::testing::PrintToString(events.messages);
  EXPECT_EQ(events.metadata("graph_timing"), "events");
  auto fallback =
      record_notice(wire::NoticeCode::kGraphTiming,
                    "cupti: no CUPTI callbacks (cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)");
  EXPECT_TRUE(
      fallback.said("graph launches timed by CUPTI's graph tracing (no CUPTI callbacks (cuptiSubscribe: "
                    "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED))"))
      << ::testing::PrintToString(fallback.messages);
  EXPECT_EQ(fallback.metadata("graph_timing"), "cupti");
}

// torchrun's RANK / WORLD_SIZE reach the processes table, and a one-process run
// is that rank in analyze.
TEST(RecordConnection, RankFromTheEnvironmentIsKept) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(true);
    RecordConnection c(writer, window);
    std::string s = stream_for_one_process();
    auto rank = [&s](const char* text) {
      wire::append_frame(s, wire::Type::kNotice, wire::Notice{static_cast<std::uint32_t>(wire::NoticeCode::kRank), 0},
                         text);
    };
    rank("x");    // ignored
    rank("3 2");  // ignored: rank beyond the world
    rank("1 2");
    wire::append_frame(s, wire::Type::kGoodbye, wire::Goodbye{1, 4});
    ASSERT_TRUE(c.on_bytes(s.data(), s.size(), 123));
    c.on_closed(456);
    writer.finish(kRunStatusComplete);
  }
  Profile p = import_run_file(path);
  ASSERT_EQ(p.processes.size(), 1u);
  EXPECT_EQ(p.processes[0].pid, 77);
  EXPECT_EQ(p.processes[0].rank, 1);
  EXPECT_EQ(p.processes[0].world_size, 2);
  EXPECT_EQ(p.processes[0].command, "python3 serve.py");
  for (const GpuActivity& a : p.gpu) EXPECT_EQ(a.pid, 77);
  std::vector<Profile> ranks = load_profiles({path});
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_EQ(ranks[0].rank, 1);
}

TEST(RecordConnection, GarbageClosesTheConnectionWithAReason) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  RunFileWriter writer(path, false);
  CaptureWindow window(true);
  RecordConnection c(writer, window);
  std::string junk = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  EXPECT_FALSE(c.on_bytes(junk.data(), junk.size(), 1));
  auto messages = c.take_messages();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("bad record stream"), std::string::npos);
}

TEST(RecordConnection, KeepsOnlyRecordsInsideTheWindow) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(false);
    window.open(kOffset + 4000);
    RecordConnection c(writer, window);
    std::string s = stream_for_one_process();
    ASSERT_TRUE(c.on_bytes(s.data(), s.size(), 1));
    c.on_closed(2);
    writer.finish(kRunStatusComplete);
  }
  Profile p = import_run_file(path);
  ASSERT_EQ(p.gpu.size(), 1u);  // only the kernel starting at 5000
  EXPECT_EQ(p.gpu[0].start, kOffset + 5000);
}

TEST(RecordConnection, DropsAndCountsAfterMaxSize) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(true);
    RecordConnection c(writer, window);
    c.set_dropping(true);
    std::string s = stream_for_one_process();
    ASSERT_TRUE(c.on_bytes(s.data(), s.size(), 1));
    c.on_closed(2);
    writer.finish(kRunStatusComplete);
  }
  Profile p = import_run_file(path);
  EXPECT_TRUE(p.gpu.empty());
  // Every reason is listed in the one records_lost stat.
  EXPECT_NE(p.stats.get(ImportStat::kLostRecords).example.find("4 max-size reached"), std::string::npos)
      << p.stats.get(ImportStat::kLostRecords).example;  // 2 kernels, 1 memcpy, 1 range
}

// CUPTI records the library does not encode arrive as losses, one row per kind.
TEST(RecordConnection, UnhandledCuptiKindsAreRecordedPerKind) {
  std::string path = test::temp_dir() + "/run.cuprobe";
  {
    RunFileWriter writer(path, false);
    CaptureWindow window(true);
    RecordConnection c(writer, window);
    std::string s = stream_for_one_process();
    wire::UnhandledKinds kinds;
    kinds.count(12);
    kinds.count(12);
    kinds.count(40);
    kinds.append_losses(s);
    ASSERT_TRUE(c.on_bytes(s.data(), s.size(), 1));
    c.on_closed(2);
    writer.finish(kRunStatusComplete);
  }
  SqliteDb db(path, SqliteDb::Mode::kReadOnly);
  auto q = db.prepare("SELECT reason, count FROM losses WHERE reason LIKE 'CUPTI activity kind%' ORDER BY reason");
  std::vector<std::pair<std::string, std::int64_t>> rows;
  while (q.step()) rows.emplace_back(q.text(0), q.int64(1));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::pair<std::string, std::int64_t>{"CUPTI activity kind 12 not recorded", 2}));
  EXPECT_EQ(rows[1], (std::pair<std::string, std::int64_t>{"CUPTI activity kind 40 not recorded", 1}));
}

}  // namespace
}  // namespace cuprobe
