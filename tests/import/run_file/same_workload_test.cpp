// One workload, every importer: an eager, launch-bound decode loop written as a
// torch profiler trace, as run files with and without `--api` and as an Nsight
// Systems SQLite export gives the same steps, the same activity names and the
// same findings with the same severities.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/analyze.h"
#include "import/byte_source.h"
#include "import/kineto_json/kineto_importer.h"
#include "import/nsys_sqlite/nsys_importer.h"
#include "import/run_file/run_file_importer.h"
#include "store/run_file_schema.h"
#include "store/run_file_writer.h"
#include "store/sqlite_db.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

// Times in microseconds. 10 steps of 1.2 ms: 100 launches 10 us apart (2 us
// each), their 3 us kernels, then the token copied back and a memset.
constexpr int kSteps = 10, kKernels = 100;
constexpr std::int64_t kStepUs = 1200, kLaunchEveryUs = 10, kLaunchUs = 2, kKernelUs = 3;
const char* const kKernelNames[] = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>()", "rms_norm_kernel",
    "silu_and_mul_kernel", "rotary_embedding_kernel"};

struct Event {
  enum Kind { kAnnotation, kLaunch, kCopyCall, kKernel, kCopy, kMemset } kind;
  std::string name;
  std::int64_t ts, dur, correlation;
};

std::vector<Event> workload() {
  std::vector<Event> ev;
  std::int64_t corr = 1;
  for (int s = 0; s < kSteps; ++s) {
    std::int64_t t0 = 1'000'000 + s * kStepUs;
    ev.push_back({Event::kAnnotation, "decode_step", t0, kKernels * kLaunchEveryUs + 20, -1});
    for (int k = 0; k < kKernels; ++k, ++corr) {
      std::int64_t at = t0 + k * kLaunchEveryUs;
      ev.push_back({Event::kLaunch, "cudaLaunchKernel", at, kLaunchUs, corr});
      ev.push_back({Event::kKernel, kKernelNames[k % 4], at + kLaunchUs + 1, kKernelUs, corr});
    }
    std::int64_t end = t0 + kKernels * kLaunchEveryUs;
    ev.push_back({Event::kCopyCall, "cudaMemcpyAsync", end, 4, corr});
    ev.push_back({Event::kCopy, "Memcpy DtoH (Device -> Pinned)", end + 5, 2, corr++});
    ev.push_back({Event::kCopyCall, "cudaMemsetAsync", end + 8, 2, corr});
    ev.push_back({Event::kMemset, "Memset (Device)", end + 11, 1, corr++});
  }
  return ev;
}

std::string kineto_json() {
  std::string out = R"({"schemaVersion": 1, "traceEvents": [)";
  bool first = true;
  for (const Event& e : workload()) {
    static const char* kCat[] = {"user_annotation", "cuda_runtime", "cuda_runtime",
                                 "kernel",          "gpu_memcpy",   "gpu_memset"};
    bool gpu = e.kind == Event::kKernel || e.kind == Event::kCopy || e.kind == Event::kMemset;
    std::string args = "{";
    if (e.correlation >= 0) args += "\"correlation\": " + std::to_string(e.correlation);
    if (gpu) args += ", \"device\": 0, \"stream\": 7";
    if (e.kind == Event::kCopy) args += ", \"bytes\": 8";
    if (e.kind == Event::kMemset) args += ", \"bytes\": 4";
    args += "}";
    out += std::string(first ? "" : ",") + "\n{\"ph\": \"X\", \"cat\": \"" + kCat[e.kind] + "\", \"name\": \"" +
           e.name + "\", \"pid\": " + (gpu ? "0" : "1") + ", \"tid\": " + (gpu ? "7" : "1") +
           ", \"ts\": " + std::to_string(e.ts) + ", \"dur\": " + std::to_string(e.dur) + ", \"args\": " + args + "}";
    first = false;
  }
  return out + "]}";
}

std::string run_file(bool api) {
  std::string path = test::temp_dir() + (api ? "/api.cuprobe" : "/plain.cuprobe");
  RunFileWriter w(path, false);
  w.process_started(1, 0, "python decode.py", 0, 130001);
  for (const Event& e : workload()) {
    RunActivityRow a;
    a.pid = 1;
    a.device = 0;
    a.stream = 7;
    a.start_ns = e.ts * 1000;
    a.end_ns = (e.ts + e.dur) * 1000;
    a.correlation = e.correlation;
    if (e.kind == Event::kKernel) {
      RunKernelRow k;
      static_cast<RunActivityRow&>(k) = a;
      k.name_id = w.name_id(e.name);
      w.add_kernel(k);
    } else if (e.kind == Event::kCopy || e.kind == Event::kMemset) {
      RunCopyRow c;
      static_cast<RunActivityRow&>(c) = a;
      c.kind = e.kind == Event::kCopy ? "DtoH" : "";
      c.bytes = e.kind == Event::kCopy ? 8 : 4;
      if (e.kind == Event::kCopy)
        w.add_memcpy(c);
      else
        w.add_memset(c);
    } else if (e.kind == Event::kAnnotation || api) {
      RunRangeRow r{.pid = 1,
                    .tid = 1,
                    .start_ns = a.start_ns,
                    .end_ns = a.end_ns,
                    .name_id = w.name_id(e.name),
                    .kind = e.kind == Event::kAnnotation ? "nvtx" : "runtime",
                    .correlation = e.correlation};
      w.add_range(r);
    }
  }
  w.process_ended(1, 2'000'000'000, "exited", 0);
  w.finish(kRunStatusComplete);
  return path;
}

// The export as `nsys export --type sqlite` writes it (docs/nsys.md): names are
// StringIds ids, API calls carry their version suffix, copies their CUPTI kind,
// NVTX ranges their text; times in ns, process 4242 (globalPid = pid << 24).
std::string nsys_export() {
  std::string path = test::temp_dir() + "/report.sqlite";
  SqliteDb db(path, SqliteDb::Mode::kCreate);
  db.exec(
      "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
      "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
      "demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, registersPerThread INTEGER, gridX INTEGER, gridY "
      "INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, staticSharedMemory INTEGER, "
      "dynamicSharedMemory INTEGER, graphId INTEGER);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
      "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes "
      "INTEGER NOT NULL, copyKind INTEGER NOT NULL);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
      "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value "
      "INTEGER NOT NULL, bytes INTEGER NOT NULL);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT "
      "NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
      "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, text TEXT, "
      "globalTid INTEGER, textId INTEGER, domainId INTEGER);");
  constexpr std::int64_t kPid = 4242, kGlobalPid = kPid << 24, kGlobalTid = kGlobalPid | (kPid + 1);
  std::map<std::string, std::int64_t> ids;
  auto string_id = [&](const std::string& s) {
    return ids.emplace(s, static_cast<std::int64_t>(ids.size())).first->second;
  };
  db.exec("BEGIN");
  auto kernel = db.prepare(
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, "
      "demangledName, shortName) VALUES (?1, ?2, 0, 1, 7, ?3, ?4, ?5, ?5)");
  auto memcpy =
      db.prepare("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?1, ?2, 0, 1, 7, ?3, ?4, 8, 2)");  // copyKind 2: DtoH
  auto memset = db.prepare("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?1, ?2, 0, 1, 7, ?3, ?4, 0, 4)");
  auto call = db.prepare("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?1, ?2, 1, ?3, ?4, ?5, 0)");
  auto range = db.prepare("INSERT INTO NVTX_EVENTS VALUES (?1, ?2, 59, ?3, ?4, NULL, 0)");
  for (const Event& e : workload()) {
    std::int64_t start = e.ts * 1000, end = (e.ts + e.dur) * 1000;
    SqliteStatement* s = nullptr;
    switch (e.kind) {
      case Event::kAnnotation:
        range.bind(1, start).bind(2, end).bind(3, std::string_view(e.name)).bind(4, kGlobalTid).run();
        continue;
      case Event::kLaunch:
      case Event::kCopyCall:
        call.bind(1, start).bind(2, end).bind(3, kGlobalTid).bind(4, e.correlation);
        call.bind(5, string_id(e.name + (e.kind == Event::kLaunch ? "_v7000" : "_v3020"))).run();
        continue;
      case Event::kKernel:
        kernel.bind(5, string_id(e.name));
        s = &kernel;
        break;
      case Event::kCopy:
        s = &memcpy;
        break;
      case Event::kMemset:
        s = &memset;
        break;
    }
    s->bind(1, start).bind(2, end).bind(3, e.correlation).bind(4, kGlobalPid).run();
  }
  auto strings = db.prepare("INSERT INTO StringIds VALUES (?1, ?2)");
  for (const auto& [value, id] : ids) strings.bind(1, id).bind(2, std::string_view(value)).run();
  db.exec("COMMIT");
  return path;
}

struct Verdict {
  std::size_t steps = 0;
  double step_ms = 0;
  std::set<std::string> names;
  std::set<std::pair<std::string, std::string>> findings;  // id, severity
};

Verdict verdict_of(Profile p) {
  std::vector<Profile> ps;
  ps.push_back(std::move(p));
  AnalyzeReport r = analyze_profiles(ps, {});
  Verdict v;
  v.steps = r.ranks[0].steps.steps.size();
  v.step_ms = r.ranks[0].steps.median_ms;
  for (const auto& k : r.ranks[0].kernels) v.names.insert(k.name);
  for (const auto& f : r.findings) v.findings.insert({f.id, f.severity});
  return v;
}

TEST(SameWorkload, EveryImporterGivesOneVerdict) {
  auto source = memory_byte_source(kineto_json());
  Verdict torch = verdict_of(import_kineto_json(*source, "trace.json"));
  Verdict with_api = verdict_of(import_run_file(run_file(true)));
  Verdict without_api = verdict_of(import_run_file(run_file(false)));
  std::vector<Profile> nsys_ranks = import_nsys_sqlite(nsys_export());
  ASSERT_EQ(nsys_ranks.size(), 1u);
  EXPECT_EQ(nsys_ranks[0].stats.problems(), 0);
  Verdict nsys = verdict_of(std::move(nsys_ranks[0]));

  EXPECT_EQ(torch.steps, static_cast<std::size_t>(kSteps));
  EXPECT_NEAR(torch.step_ms, kStepUs / 1e3, 1e-9);
  EXPECT_TRUE(torch.names.count("Memcpy DtoH"));
  EXPECT_TRUE(torch.names.count("Memset"));
  EXPECT_TRUE(torch.findings.count({"launch_bound", "high"}));
  EXPECT_TRUE(torch.findings.count({"gpu_idle", "medium"}));
  for (const Verdict* other : {&with_api, &without_api, &nsys}) {
    EXPECT_EQ(other->steps, torch.steps);
    EXPECT_NEAR(other->step_ms, torch.step_ms, 1e-9);
    EXPECT_EQ(other->names, torch.names);
    EXPECT_EQ(other->findings, torch.findings) << (other == &with_api      ? "run file --api"
                                                   : other == &without_api ? "run file"
                                                                           : "nsys");
  }
}

}  // namespace
}  // namespace cuprobe
