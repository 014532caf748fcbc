// Differential tests of the two readers of traceEvents (issue 38): simdjson over bounded windows
// (simd_window.h) and the JSON cursor must give the same Profile, the same `analyze --json` and
// the same one-line error, on every bundled and shared trace and on hand-made awkward input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "import/byte_source.h"
#include "import/kineto_json/kineto_importer.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

// Everything the importer gives, as text (the reader's own metadata aside).
std::string profile_text(const Profile& p) {
  std::ostringstream out;
  out << "events " << p.stats.events << " rank " << p.rank.value_or(-9) << " world " << p.world_size.value_or(-9)
      << "\n";
  for (const auto& d : p.devices)
    out << "device " << d.id << " " << d.name << " " << d.sm_count << " " << d.compute_major << "." << d.compute_minor
        << " " << d.memory_bytes << "\n";
  for (const auto& a : p.gpu) {
    out << "gpu " << static_cast<int>(a.kind) << " " << static_cast<int>(a.memcpy_kind) << " " << p.name_of(a.name)
        << " " << a.start << " " << a.end << " " << a.device << " " << a.stream << " " << a.correlation << " "
        << a.external_id << " " << a.bytes << " " << a.registers_per_thread << " " << a.shared_memory_bytes;
    for (int i = 0; i < 3; ++i) out << " " << a.grid[i] << "/" << a.block[i];
    out << "\n";
  }
  for (const auto& r : p.cpu) {
    out << "cpu " << static_cast<int>(r.kind) << " " << p.name_of(r.name) << " " << r.start << " " << r.end << " "
        << r.pid << " " << r.tid << " " << r.correlation << " " << r.external_id;
    if (r.inputs >= 0) {
      for (const auto& arg : p.op_inputs.at(static_cast<std::size_t>(r.inputs)).args) {
        out << " [" << arg.type << "|" << arg.concrete << "|";
        for (auto d : arg.dims) out << d << ",";
        out << "|";
        for (auto d : arg.strides) out << d << ",";
        out << "|" << arg.list_dims.size() << "]";
      }
    }
    out << "\n";
  }
  for (const auto& c : p.counters) out << "counter " << p.name_of(c.metric) << " " << c.start << " " << c.value << "\n";
  out << "unkept " << p.unkept_starts.size() << "\n";
  for (const auto& line : p.stats.counted()) out << "stat " << line.text() << "\n";
  for (const auto& [k, v] : p.metadata) {
    if (k != "events_read_by_simdjson" && k != "parsed_in_parts") out << "meta " << k << "=" << v << "\n";
  }
  for (const auto& n : p.notices) out << "notice " << n << "\n";
  return out.str();
}

std::string simd_events(const Profile& p) {
  for (const auto& [k, v] : p.metadata) {
    if (k == "events_read_by_simdjson") return v;
  }
  return "0";
}

// The profile's text, or the error's line.
std::string import_with(const std::string& text, KinetoReader reader, std::size_t max_read = SIZE_MAX) {
  try {
    auto source = memory_byte_source(text, max_read);
    return profile_text(import_kineto_json(*source, "t.json", reader));
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

std::string event(int i, const std::string& cat = "kernel") {
  return R"J({"ph":"X","cat":")J" + cat + R"J(","name":"k)J" + std::to_string(i) + R"J(","pid":0,"tid":7,"ts":)J" +
         std::to_string(1000 + i) + R"J(.5,"dur":2,"args":{"device":0,"stream":7,"correlation":)J" + std::to_string(i) +
         R"J(,"grid":[1,2,3],"block":[4,1,1]}})J";
}

// A trace whose middle event is `middle`, with enough events around it for simdjson to read windows.
std::string trace_around(const std::string& middle, const std::string& after_events = "") {
  std::string text = R"J({"schemaVersion":1,"traceEvents":[)J";
  for (int i = 0; i < 40; ++i) text += event(i) + ",\n";
  text += middle;
  for (int i = 40; i < 80; ++i) text += ",\n" + event(i, i % 3 == 0 ? "ac2g" : "kernel");
  text += "]" + after_events + "}";
  return text;
}

class KinetoReaders : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kineto_simdjson_built()) GTEST_SKIP() << "built without simdjson: the cursor reads alone";
  }
};

TEST_F(KinetoReaders, SimdjsonReadsMostEventsOfAPlainTrace) {
  std::string text = trace_around(event(99));
  auto source = memory_byte_source(text);
  Profile p = import_kineto_json(*source, "t.json", KinetoReader::kSimdjson);
  EXPECT_GE(std::stoi(simd_events(p)), 70);  // all but the last of the window's cut
  EXPECT_EQ(profile_text(p), import_with(text, KinetoReader::kCursor));
}

// The cursor is the default; CUPROBE_KINETO_READER=simdjson picks simdjson (the command line's way).
TEST_F(KinetoReaders, TheEnvironmentPicksSimdjsonTheCursorIsTheDefault) {
  std::string text = trace_around(event(99));
  ::unsetenv("CUPROBE_KINETO_READER");
  EXPECT_EQ(default_kineto_reader(), KinetoReader::kCursor);
  auto source = memory_byte_source(text);
  EXPECT_EQ(simd_events(import_kineto_json(*source, "t.json")), "0");
  ::setenv("CUPROBE_KINETO_READER", "simdjson", 1);
  EXPECT_EQ(default_kineto_reader(), KinetoReader::kSimdjson);
  source = memory_byte_source(text);
  EXPECT_NE(simd_events(import_kineto_json(*source, "t.json")), "0");
  ::unsetenv("CUPROBE_KINETO_READER");
}

// Each awkward middle event: what simdjson refuses or decodes otherwise goes back to the cursor,
// so the result (or the error, byte offset and all) is the cursor's.
TEST_F(KinetoReaders, AwkwardInputReadsAsTheCursorReadsIt) {
  const std::vector<std::string> middles = {
      event(50, "cpu_op"),
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"bad \xff utf8\",\"pid\":0,\"tid\":7,\"ts\":5,\"dur\":1}",
      R"J({"ph":"X","cat":"kernel","name":"lone \ud800 surrogate","pid":0,"tid":7,"ts":5,"dur":1})J",
      R"J({"ph":"X","cat":"kernel","name":"pair \ud83d\ude00 and \n\t\"q\"","pid":0,"tid":7,"ts":5,"dur":1})J",
      "{\"ph\":\"X\",\"cat\":\"ac2g\",\"name\":\"control \x01 in a skipped string\",\"ts\":5}",
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"control \x01 in a read string\",\"ts\":5,\"dur\":1}",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"x":tru})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"x":truex})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"x":nul})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"x":12abc})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5.5.5,"dur":1})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":+5,"dur":1})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":"5","dur":"x"})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"pid":"Spans","tid":"12"})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"args":{"grid":"grid(100,)","block":[1,2,3,4]}})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"args":[1,2]})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"args":{"registers per thread":99999999999}})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"args":{"x":[{"a":1}, {"b":2}]}})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1 "pid":0})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,,"pid":0})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1,"pid"0})J",
      R"J({"ph":"X","cat":"ac2g","name":"n","ts":5,"rest":[1}, "x":[}]})J",
      R"J({"ph":"B","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":5},{"ph":"E","pid":1,"tid":1,"ts":9})J",
      R"J({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":5,"dur":3,"args":{"External id":4,)J"
      R"J("Input Dims":[[2,3],[]],"Input type":["float","Scalar"],"Input Strides":[[3,1],[]],"Concrete Inputs":["","2"]}})J",
      R"J({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":5,"dur":3,"args":{"Input Dims":[[2,"x"]],)J"
      R"J("Input type":"float","Concrete Inputs":7}})J",
      R"J({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":5,"dur":3,"args":{"Input Dims":[[2,3})J",
      R"J({"ph":"X","cat":"kernel","name":"n\u0000nul","ts":5,"dur":1,"\u0070id":3})J",
      R"J(7)J",
      R"J({"ph":"X","cat":"cpu_op","name":"n","ts":5,"dur":1,"args":{"Input Dims":[,576],[576,4096]],"x":1}})J",
      R"J({"ph":"X","cat":"cpu_op","name":"n","ts":5,"dur":1,"args":{"Input Dims":["a":1],[2]],"x":1}})J",
      R"J({"ph":"X","cat":"cpu_op","name":"n","ts":5,"dur":1,"args":{"Input type":[:1],"x":[1]}})J",
      R"J({"ph":"X","cat":"cpu_op","name":"n","ts":5,"dur":1,"args":"External id": 9}})J",
      R"J({"ph":"X","cat":"cpu_op","name":"n":"m","ts":5,"dur":1})J",
      R"J({"ph":"X","cat":"kernel","name":"n","ts":5,"dur":1}  {"ph":"X"})J",
  };
  for (const std::string& middle : middles) {
    std::string text = trace_around(middle);
    EXPECT_EQ(import_with(text, KinetoReader::kSimdjson), import_with(text, KinetoReader::kCursor)) << middle;
    // Short reads: the cursor's window and the cut fall elsewhere.
    EXPECT_EQ(import_with(text, KinetoReader::kSimdjson, 777), import_with(text, KinetoReader::kCursor)) << middle;
  }
}

TEST_F(KinetoReaders, WhatFollowsTheArrayAndTruncationReadAsTheCursorReadsThem) {
  std::vector<std::string> texts = {
      trace_around(event(50),
                   R"J(,"deviceProperties":[{"id":0,"name":"H200"}, {"id":1,"name":"H200"}],"traceName":"t")J"),
      trace_around(event(50), R"J(,"distributedInfo":{"rank":1,"world_size":2},"baseTimeNanoseconds":1000)J"),
  };
  std::string whole = trace_around(event(50));
  for (std::size_t cut : {whole.size() / 3, whole.size() / 2, whole.size() - 3}) texts.push_back(whole.substr(0, cut));
  for (const std::string& text : texts) {
    EXPECT_EQ(import_with(text, KinetoReader::kSimdjson), import_with(text, KinetoReader::kCursor))
        << text.substr(text.size() > 200 ? text.size() - 200 : 0);
  }
}

// The whole output through the command line: `analyze --json` of every Kineto trace in tests/data
// and ../shared/traces (its .gz; the 346 MiB .xz is the bench's), with each reader.
TEST_F(KinetoReaders, AnalyzeJsonIsTheSameWithEitherReader) {
  std::vector<std::filesystem::path> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_path(""))) inputs.push_back(entry.path());
  if (std::string readme = test::shared_trace("README.md"); !readme.empty()) {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(readme).parent_path())) {
      if (entry.path().extension() == ".gz") inputs.push_back(entry.path());
    }
  }
  int compared = 0;
  for (const auto& input : inputs) {
    std::string name = input.filename().string();
    if (name.find(".json") == std::string::npos) continue;
    ::setenv("CUPROBE_KINETO_READER", "cursor", 1);
    test::CommandResult cursor = test::run_cuprobe({"analyze", "--json", input.string()});
    ::setenv("CUPROBE_KINETO_READER", "simdjson", 1);
    test::CommandResult simd = test::run_cuprobe({"analyze", "--json", input.string()});
    ::unsetenv("CUPROBE_KINETO_READER");
    EXPECT_EQ(cursor.exit_code, simd.exit_code) << name << ": " << cursor.err << " / " << simd.err;
    EXPECT_TRUE(cursor.out == simd.out) << name << ": analyze --json differs between the readers";
    EXPECT_EQ(cursor.err, simd.err) << name;
    EXPECT_FALSE(cursor.out.empty()) << name << ": " << cursor.err;
    ++compared;
  }
  EXPECT_GE(compared, 12);
}

// Every bundled Kineto trace read by both through the library, simdjson reading most events of
// those big enough for a window, one thread and two.
TEST_F(KinetoReaders, EveryFixtureGivesTheSameProfile) {
  std::string dir = test::temp_dir();
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_path(""))) {
    std::string name = entry.path().filename().string();
    if (name.find(".json") == std::string::npos || name.find("rocm") != std::string::npos) continue;
    std::string plain = dir + "/" + name + ".plain.json";
    auto source = open_byte_source(entry.path().string());
    copy_to_file(*source, plain, name);
    Profile cursor = import_kineto_json(plain, UINT64_MAX, KinetoReader::kCursor);
    for (std::uint64_t split : {std::uint64_t{UINT64_MAX}, std::uint64_t{0}}) {
      Profile simd = import_kineto_json(plain, split, KinetoReader::kSimdjson);
      EXPECT_EQ(profile_text(cursor), profile_text(simd)) << name << " split " << split;
      // (hostile_fields has invalid UTF-8 in its one window: simdjson refuses it whole, the cursor reads it)
      if (cursor.stats.events > 1000 && name.find("hostile") == std::string::npos) {
        EXPECT_GT(std::stoll(simd_events(simd)), cursor.stats.events / 2) << name;
      }
    }
    ++traces;
  }
  EXPECT_GE(traces, 10);
}

}  // namespace
}  // namespace cuprobe
