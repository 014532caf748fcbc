#include "wire/record_stream_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace cuprobe {
namespace {

std::string hello_frame(std::uint32_t magic = wire::kMagic, std::uint16_t version = wire::kVersion) {
  std::string out;
  wire::append_frame(out, wire::Type::kHello, wire::Hello{magic, version, 0, 130001, 0, 42, 1, 1000, 10},
                     "python3 x.py");
  return out;
}

std::string sample_stream() {
  std::string s = hello_frame();
  wire::append_frame(s, wire::Type::kString, wire::String{1, 0}, "_Z6kernelv");
  wire::Kernel k{};
  k.start = 100;
  k.end = 200;
  k.name_id = 1;
  wire::append_frame(s, wire::Type::kKernel, k);
  wire::append_frame(s, wire::Type::kGoodbye, wire::Goodbye{5, 1});
  return s;
}

std::vector<wire::Type> parse_all(RecordStreamParser& p) {
  std::vector<wire::Type> types;
  WireFrame f;
  while (p.next(f) == RecordStreamParser::Status::kFrame) types.push_back(f.type);
  return types;
}

TEST(RecordProtocol, ParsesFramesInOrder) {
  RecordStreamParser p;
  std::string s = sample_stream();
  p.feed(s.data(), s.size());
  auto types = parse_all(p);
  ASSERT_EQ(types.size(), 4u);
  EXPECT_EQ(types[0], wire::Type::kHello);
  EXPECT_EQ(types[2], wire::Type::kKernel);
  EXPECT_EQ(types[3], wire::Type::kGoodbye);
  EXPECT_FALSE(p.failed());
  EXPECT_EQ(p.pending_bytes(), 0u);
}

TEST(RecordProtocol, SameFramesWhateverTheChunking) {
  std::string s = sample_stream();
  for (std::size_t chunk = 1; chunk < 40; ++chunk) {
    RecordStreamParser p;
    std::vector<wire::Type> types;
    std::string tail_text;
    for (std::size_t i = 0; i < s.size(); i += chunk) {
      p.feed(s.data() + i, std::min(chunk, s.size() - i));
      WireFrame f;
      while (p.next(f) == RecordStreamParser::Status::kFrame) {
        types.push_back(f.type);
        if (f.type == wire::Type::kString) tail_text = std::string(f.payload.substr(sizeof(wire::String)));
      }
    }
    ASSERT_EQ(types.size(), 4u) << "chunk " << chunk;
    EXPECT_EQ(tail_text, "_Z6kernelv");
    EXPECT_FALSE(p.failed());
  }
}

TEST(RecordProtocol, TruncatedStreamLeavesPendingBytes) {
  std::string s = sample_stream();
  RecordStreamParser p;
  p.feed(s.data(), s.size() - 5);
  auto types = parse_all(p);
  EXPECT_EQ(types.size(), 3u);
  EXPECT_EQ(p.pending_bytes(), sizeof(wire::FrameHeader) + sizeof(wire::Goodbye) - 5);
  EXPECT_FALSE(p.failed());
}

TEST(RecordProtocol, RejectsStreamWithoutHello) {
  std::string s;
  wire::append_frame(s, wire::Type::kGoodbye, wire::Goodbye{5, 1});
  RecordStreamParser p;
  p.feed(s.data(), s.size());
  WireFrame f;
  EXPECT_EQ(p.next(f), RecordStreamParser::Status::kError);
  EXPECT_NE(p.error().find("hello"), std::string::npos);
}

TEST(RecordProtocol, RejectsBadMagicAndVersion) {
  for (auto s : {hello_frame(0xdeadbeef), hello_frame(wire::kMagic, 99)}) {
    RecordStreamParser p;
    p.feed(s.data(), s.size());
    WireFrame f;
    EXPECT_EQ(p.next(f), RecordStreamParser::Status::kError);
  }
}

TEST(RecordProtocol, RejectsOversizedAndMissizedFrames) {
  {
    std::string s = hello_frame();
    wire::FrameHeader h{static_cast<std::uint16_t>(wire::Type::kKernel), 0, wire::kMaxPayload + 1};
    s.append(reinterpret_cast<const char*>(&h), sizeof h);
    RecordStreamParser p;
    p.feed(s.data(), s.size());
    parse_all(p);
    EXPECT_TRUE(p.failed());
    EXPECT_NE(p.error().find("larger than the limit"), std::string::npos);
  }
  {
    std::string s = hello_frame();
    wire::FrameHeader h{static_cast<std::uint16_t>(wire::Type::kKernel), 0, 10};
    s.append(reinterpret_cast<const char*>(&h), sizeof h);
    s.append(10, 'x');
    RecordStreamParser p;
    p.feed(s.data(), s.size());
    parse_all(p);
    EXPECT_TRUE(p.failed());
    EXPECT_NE(p.error().find("too short"), std::string::npos);
  }
  {
    std::string s = hello_frame();
    wire::FrameHeader h{static_cast<std::uint16_t>(wire::Type::kGoodbye), 0, sizeof(wire::Goodbye) + 4};
    s.append(reinterpret_cast<const char*>(&h), sizeof h);
    s.append(sizeof(wire::Goodbye) + 4, 'x');
    RecordStreamParser p;
    p.feed(s.data(), s.size());
    parse_all(p);
    EXPECT_TRUE(p.failed());
    EXPECT_NE(p.error().find("wrong size"), std::string::npos);
  }
}

TEST(RecordProtocol, RejectsSecondHello) {
  std::string s = hello_frame() + hello_frame();
  RecordStreamParser p;
  p.feed(s.data(), s.size());
  EXPECT_EQ(parse_all(p).size(), 1u);
  EXPECT_TRUE(p.failed());
}

TEST(RecordProtocol, SkipsUnknownTypesFromNewerLibraries) {
  std::string s = hello_frame();
  wire::FrameHeader h{999, 0, 3};
  s.append(reinterpret_cast<const char*>(&h), sizeof h);
  s.append("abc");
  wire::append_frame(s, wire::Type::kGoodbye, wire::Goodbye{5, 1});
  RecordStreamParser p;
  p.feed(s.data(), s.size());
  auto types = parse_all(p);
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(types[1], wire::Type::kGoodbye);
  EXPECT_EQ(p.skipped_unknown(), 1u);
}

TEST(RecordProtocol, RandomGarbageNeverCrashes) {
  std::mt19937 rng(7);
  std::string valid = sample_stream();
  for (int round = 0; round < 500; ++round) {
    std::string s = valid;
    // Flip a few bytes, or replace everything after the hello by noise.
    if (round % 2 == 0) {
      for (int i = 0; i < 4; ++i) s[rng() % s.size()] = static_cast<char>(rng());
    } else {
      s.resize(sizeof(wire::FrameHeader) + sizeof(wire::Hello));
      for (int i = 0; i < 200; ++i) s.push_back(static_cast<char>(rng()));
    }
    RecordStreamParser p;
    p.feed(s.data(), s.size());
    WireFrame f;
    int frames = 0;
    while (p.next(f) == RecordStreamParser::Status::kFrame) {
      ASSERT_GE(f.payload.size(), wire::fixed_size(f.type));
      ++frames;
    }
    EXPECT_LE(frames, 260);
  }
}

}  // namespace
}  // namespace cuprobe
