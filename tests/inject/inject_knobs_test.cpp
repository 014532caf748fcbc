#include "inject/inject_knobs.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace cuprobe::inject {
namespace {

InjectKnobs read(const std::map<std::string, std::string>& env) {
  return read_inject_knobs([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(InjectKnobs, UnsetIsANormalRecording) {
  InjectKnobs k = read({});
  EXPECT_TRUE(k.load_cupti);
  EXPECT_EQ(k.subscribe, SubscribeMode::kAuto);
  EXPECT_EQ(k.buffers, BufferMode::kPool);
  EXPECT_FALSE(k.kinds.has_value());
  EXPECT_FALSE(k.graph_trace.has_value());
  EXPECT_TRUE(k.device_records);
  EXPECT_TRUE(k.worker_off_target_cpus);
  EXPECT_TRUE(k.description.empty());
  EXPECT_TRUE(k.problems.empty());
}

TEST(InjectKnobs, EachSwitchIsReadAndDescribed) {
  InjectKnobs k = read({{"CUPROBE_INJECT_CUPTI", "0"},
                        {"CUPROBE_INJECT_SUBSCRIBE", "none"},
                        {"CUPROBE_INJECT_BUFFERS", "malloc"},
                        {"CUPROBE_INJECT_BUFFER_MIB", "32"},
                        {"CUPROBE_INJECT_KINDS", "none"},
                        {"CUPROBE_INJECT_GRAPH_TRACE", "1"},
                        {"CUPROBE_INJECT_DEVICE", "0"},
                        {"CUPROBE_INJECT_WORKER", "target-cpus"}});
  EXPECT_FALSE(k.load_cupti);
  EXPECT_EQ(k.subscribe, SubscribeMode::kNone);
  EXPECT_EQ(k.buffers, BufferMode::kMalloc);
  EXPECT_EQ(k.buffer_bytes, 32u << 20);
  EXPECT_EQ(k.kinds, "none");
  EXPECT_EQ(k.graph_trace, true);
  EXPECT_FALSE(k.device_records);
  EXPECT_FALSE(k.worker_off_target_cpus);
  EXPECT_TRUE(k.problems.empty());
  EXPECT_NE(k.description.find("CUPROBE_INJECT_CUPTI=0"), std::string::npos);
  EXPECT_NE(k.description.find("CUPROBE_INJECT_WORKER=target-cpus"), std::string::npos);
}

TEST(InjectKnobs, ValuesNotUnderstoodKeepTheDefaultAndAreSaid) {
  InjectKnobs k = read({{"CUPROBE_INJECT_SUBSCRIBE", "some"},
                        {"CUPROBE_INJECT_BUFFER_MIB", "0"},
                        {"CUPROBE_INJECT_GRAPH_TRACE", "yes"},
                        {"CUPROBE_INJECT_BUFFERS", "none"}});
  EXPECT_EQ(k.subscribe, SubscribeMode::kAuto);
  EXPECT_EQ(k.buffer_bytes, 8u << 20);
  EXPECT_FALSE(k.graph_trace.has_value());
  EXPECT_EQ(k.buffers, BufferMode::kNone);
  ASSERT_EQ(k.problems.size(), 3u);
  EXPECT_EQ(k.problems[0], "CUPROBE_INJECT_SUBSCRIBE=some");
  EXPECT_EQ(k.description, "CUPROBE_INJECT_BUFFERS=none");
}

}  // namespace
}  // namespace cuprobe::inject
