#include "load/stream_decoder.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace cuprobe {
namespace {

using Kind = StreamChunk::Kind;

TEST(StreamDecoder, CompletionsTextUsageDone) {
  StreamDecoder d(ApiKind::kCompletions);
  StreamChunk c =
      d.decode("", R"({"id":"cmpl-1","choices":[{"index":0,"text":"Hi","finish_reason":null}],"usage":null})");
  EXPECT_EQ(c.kind, Kind::kData);
  EXPECT_TRUE(c.has_content);
  EXPECT_EQ(c.id, "cmpl-1");
  EXPECT_EQ(c.completion_tokens, -1);
  c = d.decode("", R"({"choices":[{"text":"","finish_reason":"length"}]})");
  EXPECT_FALSE(c.has_content);
  EXPECT_TRUE(c.finished);
  c = d.decode("", R"({"id":"x","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}})");
  EXPECT_EQ(c.kind, Kind::kData);
  EXPECT_FALSE(c.has_content);
  EXPECT_EQ(c.prompt_tokens, 12);
  EXPECT_EQ(c.completion_tokens, 34);
  EXPECT_EQ(d.decode("", "[DONE]").kind, Kind::kDone);
  EXPECT_EQ(d.decode("", "[DONE] \n").kind, Kind::kDone);
}

TEST(StreamDecoder, ChatRoleChunkIsNotContentReasoningIs) {
  StreamDecoder d(ApiKind::kChat);
  EXPECT_FALSE(d.decode("", R"({"choices":[{"delta":{"role":"assistant","content":""}}]})").has_content);
  EXPECT_FALSE(d.decode("", R"({"choices":[{"delta":{"content":null}}]})").has_content);
  EXPECT_TRUE(d.decode("", R"({"choices":[{"delta":{"content":"x"}}]})").has_content);
  EXPECT_TRUE(d.decode("", R"({"choices":[{"delta":{"reasoning_content":"hmm"}}]})").has_content);
  // Completions-style "text" is not chat content.
  EXPECT_FALSE(d.decode("", R"({"choices":[{"text":"x"}]})").has_content);
}

TEST(StreamDecoder, GenerateCumulativeText) {
  StreamDecoder d(ApiKind::kGenerate);
  auto ev = [&](const char* text, int tokens, const char* finish) {
    return d.decode("", std::string("{\"text\":\"") + text + "\",\"meta_info\":{\"id\":\"g1\",\"prompt_tokens\":5," +
                            "\"completion_tokens\":" + std::to_string(tokens) + ",\"finish_reason\":" + finish + "}}");
  };
  StreamChunk c = ev("a", 1, "null");
  EXPECT_TRUE(c.has_content);
  EXPECT_EQ(c.id, "g1");
  EXPECT_EQ(c.prompt_tokens, 5);
  EXPECT_FALSE(ev("a", 1, "null").has_content);  // repeated: nothing new
  c = ev("ab", 2, "{\"type\":\"length\"}");
  EXPECT_TRUE(c.has_content);
  EXPECT_TRUE(c.finished);
  EXPECT_EQ(c.completion_tokens, 2);
  StreamDecoder nometa(ApiKind::kGenerate);
  EXPECT_TRUE(nometa.decode("", R"({"text":"a"})").has_content);
  EXPECT_FALSE(nometa.decode("", R"({"text":"a"})").has_content);
  EXPECT_EQ(nometa.decode("", R"({"meta_info":{}})").kind, Kind::kMalformed);
}

TEST(StreamDecoder, ErrorEvents) {
  StreamDecoder d(ApiKind::kCompletions);
  StreamChunk c = d.decode("", R"({"error":{"message":"out of memory","code":500}})");
  EXPECT_EQ(c.kind, Kind::kError);
  EXPECT_EQ(c.message, "out of memory");
  c = d.decode("", R"({"object":"error","message":"bad request","code":400})");
  EXPECT_EQ(c.kind, Kind::kError);
  EXPECT_EQ(c.message, "bad request");
  c = d.decode("error", "plain text failure");
  EXPECT_EQ(c.kind, Kind::kError);
  EXPECT_EQ(c.message, "plain text failure");
  EXPECT_EQ(d.decode("", R"({"error":null,"choices":[{"text":"x"}]})").kind, Kind::kData);
}

TEST(StreamDecoder, MalformedData) {
  StreamDecoder d(ApiKind::kCompletions);
  for (const char* bad : {"{not json", "[1,2]", "\"str\"", "", R"({"id":"x"})", "{\"choices\": [{\"text\": \"x\"}"}) {
    StreamChunk c = d.decode("", bad);
    EXPECT_EQ(c.kind, Kind::kMalformed) << bad;
    EXPECT_FALSE(c.message.empty());
  }
}

TEST(StreamDecoder, Endpoints) {
  EXPECT_EQ(api_for_endpoint("/v1/completions"), ApiKind::kCompletions);
  EXPECT_EQ(api_for_endpoint("/v1/chat/completions"), ApiKind::kChat);
  EXPECT_EQ(api_for_endpoint("/generate"), ApiKind::kGenerate);
  EXPECT_THROW(api_for_endpoint("/v1/embeddings"), Error);
  std::string path = "/proxy/v1/chat/completions";
  EXPECT_EQ(take_api_endpoint(path), "/v1/chat/completions");
  EXPECT_EQ(path, "/proxy");
  path = "/other";
  EXPECT_EQ(take_api_endpoint(path), "");
  EXPECT_EQ(path, "/other");
}

}  // namespace
}  // namespace cuprobe
