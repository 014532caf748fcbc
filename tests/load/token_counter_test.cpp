#include "load/token_counter.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "load/dataset_random.h"
#include "load/dataset_text.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"

namespace cuprobe {
namespace {

TEST(TokenCounter, WordsSplitOnWhiteSpace) {
  EXPECT_EQ(count_words(""), 0);
  EXPECT_EQ(count_words("  a\tbb\n\nccc  "), 3);
}

TEST(TokenCounter, ServerTokenizeWithoutSpecialTokens) {
  test::StreamServerOptions o;
  o.chars_per_token = 2;
  test::StreamServer s(o);
  ServerTokenCounter counter(parse_http_url(s.url()), {}, "test-model");
  EXPECT_EQ(counter.count("abcd e"), 3);  // 2 + 1, no BOS
  EXPECT_EQ(counter.method(), "server /tokenize");
  // Fitted text hits the target exactly in the server's tokens, though words are 1-3 tokens each (short words close the
  // gap).
  for (std::int64_t target : {2, 7, 50, 333}) {
    FittedText t = fit_text(counter, 11, target);
    EXPECT_EQ(test::stream_server_tokens(t.text, 2), t.tokens);
    EXPECT_TRUE(t.exact) << target << ": " << t.tokens;
  }
  EXPECT_EQ(s.tokenize_calls(), counter.calls());
}

// The same counter, one call at a time.
class OneAtATime final : public TokenCounter {
 public:
  explicit OneAtATime(TokenCounter& inner) : inner_(inner) {}
  std::int64_t count(const std::string& text) override { return inner_.count(text); }
  std::string method() const override { return inner_.method(); }

 private:
  TokenCounter& inner_;
};

// Fitting on several threads (the server's calls overlap) gives what fitting one by one gives.
TEST(TokenCounter, ParallelFitsEqualSequentialOnes) {
  test::StreamServerOptions o;
  o.chars_per_token = 3;
  test::StreamServer s(o);
  ServerTokenCounter counter(parse_http_url(s.url()), {}, "");
  ASSERT_TRUE(counter.concurrent());
  RandomSpec spec;
  spec.input_len = 60;
  spec.range_ratio = 0.5;
  spec.count = 40;
  spec.seed = 9;
  auto parallel = random_dataset(spec, counter);
  OneAtATime sequential(counter);
  auto one_by_one = random_dataset(spec, sequential);
  ASSERT_EQ(parallel.size(), one_by_one.size());
  for (std::size_t i = 0; i < parallel.size(); ++i) {
    EXPECT_EQ(parallel[i].turns[0].text, one_by_one[i].turns[0].text) << i;
    EXPECT_EQ(parallel[i].turns[0].expected_prompt_tokens, test::stream_server_tokens(parallel[i].turns[0].text, 3));
  }
  EXPECT_EQ(s.tokenize_calls(), counter.calls());
}

TEST(TokenCounter, AutoFallsBackToWordsAndServerModeFails) {
  test::StreamServerOptions o;
  o.tokenize_endpoint = false;
  test::StreamServer s(o);
  std::string note;
  auto counter = make_token_counter("auto", parse_http_url(s.url()), {}, "", note);
  EXPECT_EQ(counter->method(), "words");
  EXPECT_NE(note.find("/v1/tokenize answered HTTP 404"), std::string::npos) << note;
  EXPECT_THROW(make_token_counter("server", parse_http_url(s.url()), {}, "", note), Error);
  EXPECT_EQ(make_token_counter("words", parse_http_url(s.url()), {}, "", note)->method(), "words");
}

TEST(TokenCounter, V1TokenizeAndCountOrTokens) {
  test::ScriptedServer s([](const test::ScriptedRequest& req) {
    if (req.path == "/v1/tokenize") return test::http_response(200, "{\"tokens\": [1, 2, 3, 4]}");
    return test::http_response(404, "{}");
  });
  ServerTokenCounter counter(parse_http_url(s.url()), {}, "m");
  EXPECT_EQ(counter.count("whatever"), 4);
  EXPECT_EQ(counter.method(), "server /v1/tokenize");
  auto reqs = s.requests();
  ASSERT_EQ(reqs.size(), 2u);
  auto body = nlohmann::json::parse(reqs[1].body);
  EXPECT_EQ(body["model"], "m");
  EXPECT_EQ(body["add_special_tokens"], false);
}

// A /tokenize answer over the 1 MiB read (the ids of a long prompt) is called that, not "without count".
TEST(TokenCounter, AnAnswerOverTheReadLimitIsNamedAsSuch) {
  std::string ids;
  for (int i = 0; i < 300000; ++i) ids += (i ? "," : "") + std::to_string(100000 + i);
  std::string body = "{\"tokens\": [" + ids + "], \"count\": 300000}";
  test::ScriptedServer s([&](const test::ScriptedRequest&) { return test::http_response(200, body); });
  ServerTokenCounter counter(parse_http_url(s.url()), {}, "m");
  try {
    counter.count("long prompt");
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("/tokenize answered " + std::to_string(body.size()) + " bytes, more than the 1048576 read"),
              std::string::npos)
        << what.substr(0, 300);
    EXPECT_NE(what.find("--tokenizer tokenizer.json or --token-count words"), std::string::npos);
    EXPECT_EQ(what.find("without"), std::string::npos);
    EXPECT_LT(what.size(), 400u);
  }
}

}  // namespace
}  // namespace cuprobe
