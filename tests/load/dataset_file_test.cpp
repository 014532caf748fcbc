// Datasets (issue 23 item 4 and "Messages"): memory linear in the file, a size
// limit naming the file and the flag, devices and idle FIFOs refused, and JSON
// errors as one line with the byte and the fix, never echoing the text.
#include "load/dataset_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "common/error.h"
#include "load/dataset_sharegpt.h"
#include "load/prompt_source.h"
#include "load/workload.h"
#include "support/error_text.h"
#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe {
namespace {

// Caps this (forked) process's address space at what it uses now plus `extra` bytes.
void cap_memory(std::uint64_t extra) {
  std::ifstream status("/proc/self/status");
  std::uint64_t vm_kib = 0;
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmSize:", 0) == 0) vm_kib = std::stoull(line.substr(7));
  }
  rlimit limit{vm_kib * 1024 + extra, vm_kib * 1024 + extra};
  ::setrlimit(RLIMIT_AS, &limit);
}

// One conversation of 20,000 turns (3 MB): built with its whole history per turn, it took ~30 GB.
TEST(DatasetFileDeathTest, AShareGptFileOfTwentyThousandTurnsFitsInLinearMemory) {
  std::string text = "[{\"id\": \"long\", \"conversations\": [";
  for (int t = 0; t < 20000; ++t) {
    text += std::string(t ? "," : "") + "{\"from\": \"" + (t % 2 ? "gpt" : "human") + "\", \"value\": \"turn " +
            std::to_string(t) + " " + std::string(120, 'w') + " a b c d e\"}";
  }
  text += "]}]";
  std::string path = test::write_temp_file("long.json", text);
  ASSERT_GT(text.size(), 2'500'000u);
  EXPECT_EXIT(
      {
        cap_memory(std::uint64_t{256} << 20);
        ShareGptFile file = read_sharegpt(path);
        WordCounter counter;
        for (bool multi : {false, true}) {
          ShareGptSpec spec;
          spec.count = 1;
          spec.multi_turn = multi;
          ShareGptSelection sel = select_sharegpt(file, spec, counter);
          if (sel.conversations.size() != 1) std::_Exit(2);
          if (sel.conversations[0].turns.size() != (multi ? 10000u : 1u)) std::_Exit(3);
          Workload w(std::move(sel.conversations), "long");
          Prompt first = w.next(0);
          if (first.messages.size() != 1) std::_Exit(4);
          w.ended(0);
          if (multi && w.next(1).messages.size() != 3) std::_Exit(5);
        }
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

// A 256 MiB whitespace file is streamed: the error comes at its end, in memory the size of a buffer.
TEST(DatasetFileDeathTest, HugeWhitespaceIsStreamedToAClearError) {
  std::string path = test::temp_dir() + "/blank.json";
  {
    std::ofstream out(path, std::ios::binary);
    std::string block(1 << 20, ' ');
    for (int i = 0; i < 256; ++i) out.write(block.data(), static_cast<std::streamsize>(block.size()));
  }
  EXPECT_EXIT(
      {
        cap_memory(std::uint64_t{64} << 20);
        std::string e = test::error_text([&] { read_sharegpt(path); });
        std::fprintf(stderr, "%s\n", e.c_str());
        std::_Exit(e == path + ": byte 268435456: the JSON ends early (unexpected end of input): is the file complete?"
                       ? 0
                       : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(DatasetFile, AFileOverTheLimitNamesItAndTheFlag) {
  std::string path = test::write_temp_file("big.jsonl", std::string(5000, ' '));
  EXPECT_EQ(test::error_text([&] { read_jsonl_prompts(path, 4, 4096); }),
            path +
                ": 5000 bytes, over the limit of 4096 bytes for a dataset: raise it with --dataset-max-size SIZE "
                "if this file is meant");
  EXPECT_EQ(test::error_text([&] { read_sharegpt(path, 4096); }).rfind(path + ": 5000 bytes, over the limit", 0), 0u);
}

TEST(DatasetFile, DevicesDirectoriesAndIdleFifosEndWithOneLine) {
  EXPECT_EQ(test::error_text([] { read_sharegpt("/dev/zero"); }),
            "/dev/zero: a device, not a dataset file: give a file");
  EXPECT_EQ(test::error_text([] { read_jsonl_prompts("/dev/zero", 4); }),
            "/dev/zero: a device, not a dataset file: give a file");
  std::string dir = test::temp_dir();
  EXPECT_EQ(test::error_text([&] { read_sharegpt(dir); }), dir + ": a directory, not a dataset file");
  std::string fifo = dir + "/idle.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(test::error_text([&] { read_sharegpt(fifo); }),
            fifo + ": byte 0: the JSON ends early (unexpected end of input): is the file complete?");
  EXPECT_EQ(test::error_text([&] { read_jsonl_prompts(fifo, 4); }), fifo + ": the dataset has no prompts");
  // A pipe over the limit ends at the limit, not at the end of memory.
  int fd = ::open(fifo.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  std::string chunk(8192, ' ');
  ASSERT_EQ(::write(fd, chunk.data(), chunk.size()), static_cast<ssize_t>(chunk.size()));
  std::string e = test::error_text([&] { read_sharegpt(fifo, 4096); });
  ::close(fd);
  EXPECT_EQ(e, fifo +
                   ": over the limit of 4096 bytes for a dataset: raise it with --dataset-max-size SIZE if this "
                   "file is meant");
}

TEST(DatasetFile, AHugeNumberIsOneShortLineWithItsByte) {
  std::string digits(1 << 20, '9');
  std::string path = test::write_temp_file(
      "num.json", "[{\"conversations\": [{\"from\": \"human\", \"value\": \"q\"}], \"n\": " + digits + "}]");
  std::string e = test::error_text([&] { read_sharegpt(path); });
  EXPECT_EQ(e.rfind(path + ": byte ", 0), 0u) << e.substr(0, 300);
  EXPECT_NE(e.find("a number too large for a double: fix or remove it"), std::string::npos) << e.substr(0, 300);
  EXPECT_LT(e.size(), 300u);
  std::string jsonl = test::write_temp_file("num.jsonl", "{\"prompt\": \"a\", \"max_tokens\": 1e999}\n");
  EXPECT_EQ(test::error_text([&] { read_jsonl_prompts(jsonl, 4); }),
            jsonl + ": byte 30: line 1: a number too large for a double: fix or remove it");  // where it starts
}

TEST(DatasetFile, InvalidUtf8IsCalledThatNotNotAnObject) {
  std::string path = test::write_temp_file("latin1.jsonl", "{\"prompt\": \"ok\"}\n{\"prompt\": \"caf\xe9\"}\n");
  // Byte 33: where the sequence 0xE9 opens is found broken (at the closing quote).
  EXPECT_EQ(test::error_text([&] { read_jsonl_prompts(path, 4); }),
            path +
                ": byte 33: line 2: invalid UTF-8 in a string: the dataset must be UTF-8 text (convert it, e.g. "
                "iconv -t UTF-8)");
}

TEST(DatasetFile, BenchTakesTheLimitFromItsFlag) {
  test::StreamServerOptions o;
  test::StreamServer s(o);
  std::string path = test::write_temp_file("d.jsonl", "{\"prompt\": \"hello there\"}\n");
  auto r = test::run_cuprobe(
      {"bench", s.url(), "--dataset-name", "jsonl", "--dataset-path", path, "--dataset-max-size", "16", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path + ": 26 bytes, over the limit of 16 bytes for a dataset"), std::string::npos) << r.err;
  EXPECT_TRUE(s.served().empty());
  r = test::run_cuprobe({"bench", s.url(), "--dataset", "/dev/zero", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/dev/zero: a device, not a dataset file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cuprobe
