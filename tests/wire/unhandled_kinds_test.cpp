#include "wire/unhandled_kinds.h"

#include <gtest/gtest.h>

#include <map>

#include "wire/record_stream_parser.h"
#include "wire/record_wire.h"

namespace cuprobe {
namespace {

std::map<std::uint32_t, std::uint64_t> losses_in(const std::string& frames) {
  std::string s;
  wire::append_frame(s, wire::Type::kHello, wire::Hello{wire::kMagic, wire::kVersion, 0, 130001, 0, 42, 1, 1000, 10});
  s += frames;
  RecordStreamParser p;
  p.feed(s.data(), s.size());
  std::map<std::uint32_t, std::uint64_t> out;
  WireFrame f;
  while (p.next(f) == RecordStreamParser::Status::kFrame) {
    if (f.type != wire::Type::kLoss) continue;
    auto loss = wire::read_fixed<wire::Loss>(f.payload.data());
    EXPECT_EQ(loss.reason, static_cast<std::uint32_t>(wire::LossReason::kUnhandledKind));
    out[loss.detail] += loss.count;
  }
  EXPECT_FALSE(p.failed()) << p.error();
  return out;
}

TEST(UnhandledKinds, CountsPerKindAndSendsOneLossFrameEach) {
  wire::UnhandledKinds kinds;
  for (int i = 0; i < 3; ++i) kinds.count(12);
  kinds.count(40);
  std::string out;
  kinds.append_losses(out);
  EXPECT_EQ(losses_in(out), (std::map<std::uint32_t, std::uint64_t>{{12, 3}, {40, 1}}));
  EXPECT_TRUE(kinds.empty());
}

TEST(UnhandledKinds, NothingCountedSendsNothing) {
  wire::UnhandledKinds kinds;
  std::string out;
  kinds.append_losses(out);
  EXPECT_TRUE(out.empty());
  kinds.count(7);
  kinds.append_losses(out);
  out.clear();
  kinds.append_losses(out);  // counted once, sent once
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace cuprobe
