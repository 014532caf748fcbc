// Issue 39 item 6: a key given to cuprobe (--api-key, $OPENAI_API_KEY, a
// credential -H header) is never written, even when the server echoes it back:
// not on stdout, not on stderr, not in --save-requests, not in a result file.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "support/run_cuprobe.h"
#include "support/scripted_server.h"

namespace cuprobe::test {
namespace {

const std::string kKey = "sk-test-SECRET1234567";
const std::string kHeaderKey = "xk-HEADER-SECRET-987";

// Ready; completions alternate: a 401 whose body quotes both credentials, and a stream whose
// text quotes them.
ScriptedHandler echoing_server() {
  auto count = std::make_shared<std::atomic<int>>(0);
  return [count](const ScriptedRequest& req) {
    if (req.path == "/health") return http_response(200, "", "text/plain");
    if (req.path == "/v1/models") return http_response(200, "{\"data\":[{\"id\":\"m\"}]}");
    std::string echoed = req.header("Authorization") + " / " + req.header("X-Api-Key");
    if ((*count)++ % 2 == 0) return http_response(401, "{\"error\":\"bad key " + echoed + "\"}");
    return sse_response(
        {"{\"id\":\"a\",\"choices\":[{\"text\":\"" + echoed + "\",\"finish_reason\":\"length\"}]}", "[DONE]"});
  };
}

void expect_no_secret(const std::string& where, const std::string& text) {
  EXPECT_EQ(text.find(kKey), std::string::npos) << where << ": " << text;
  EXPECT_EQ(text.find(kHeaderKey), std::string::npos) << where << ": " << text;
}

TEST(BenchSecrets, EchoedKeysAreNeverWritten) {
  ScriptedServer s(echoing_server());
  std::string dir = temp_dir();
  auto r = run_cuprobe({"bench",
                        s.url(),
                        "--api-key",
                        kKey,
                        "-H",
                        "X-Api-Key: " + kHeaderKey,
                        "-c",
                        "1",
                        "-n",
                        "4",
                        "--output-len",
                        "1",
                        "--save-requests",
                        dir + "/requests.jsonl",
                        "--save-result",
                        "--save-detailed",
                        "--result-dir",
                        dir,
                        "--result-filename",
                        "r.json"});
  EXPECT_EQ(r.exit_code, 4) << r.err;  // half failed: above the default error rate
  // The server did get them.
  ASSERT_FALSE(s.requests().empty());
  EXPECT_EQ(s.requests().back().header("Authorization"), "Bearer " + kKey);
  expect_no_secret("stdout", r.out);
  expect_no_secret("stderr", r.err);
  std::string requests = slurp(dir + "/requests.jsonl"), result = slurp(dir + "/r.json");
  ASSERT_FALSE(requests.empty());
  ASSERT_FALSE(result.empty());
  expect_no_secret("--save-requests", requests);
  expect_no_secret("result file", result);
  EXPECT_NE(requests.find("bad key Bearer *** / ***"), std::string::npos) << requests;
  EXPECT_NE(result.find("Bearer *** / ***"), std::string::npos) << result;

  // --json on stdout, the key from the environment.
  setenv("OPENAI_API_KEY", kKey.c_str(), 1);
  r = run_cuprobe({"bench", s.url(), "-c", "1", "-n", "2", "--output-len", "1", "--json", "--max-error-rate", "1"});
  unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_no_secret("--json stdout", r.out);
  expect_no_secret("stderr", r.err);
}

TEST(BenchSecrets, WaitNeverShowsAnEchoedKey) {
  ScriptedServer s([](const ScriptedRequest& req) {
    return http_response(503, "loading; you sent " + req.header("Authorization"), "text/plain");
  });
  auto r = run_cuprobe({"wait", s.url(), "--api-key", kKey, "--timeout", "600ms", "--interval", "100ms"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(r.err.empty());
  expect_no_secret("wait's stderr", r.err);
  expect_no_secret("wait's stdout", r.out);
}

}  // namespace
}  // namespace cuprobe::test
