// Issue 39 item 7: names cuprobe was given that are not UTF-8 (a dataset file's
// name, --model) never cost a run: the requests are sent and the report, the
// --save-requests lines and the result file are written with U+FFFD in their
// place, instead of the JSON library's "invalid UTF-8 byte" after the run.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "common/utf8.h"
#include "support/json_output.h"
#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

TEST(BenchUtf8Names, DatasetNameAndModelNotInUtf8KeepTheRun) {
  StreamServer server(stream_timing(1000, 500));
  std::string dir = temp_dir();
  std::string dataset = dir + "/data\xff.jsonl";
  std::ofstream(dataset) << "{\"prompt\":\"hello there\",\"output_tokens\":2}\n";
  auto r = run_cuprobe({"bench", server.url(), "--dataset-name", "custom", "--dataset-path", dataset, "--model",
                        "m\xfe", "-n", "2", "--json", "-q", "--save-requests", dir + "/r.jsonl", "--result-file",
                        dir + "/result.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GE(server.served().size(), 2u);  // and the probe of the fields the server takes
  nlohmann::json j = json_stdout(r);
  EXPECT_EQ(j["requests"]["completed"], 2);
  EXPECT_TRUE(is_valid_utf8(r.out));
  EXPECT_NE(r.out.find("data\xEF\xBF\xBD.jsonl"), std::string::npos) << r.out;
  for (const std::string& file : {dir + "/r.jsonl", dir + "/result.json"}) {
    std::string text = slurp(file);
    EXPECT_FALSE(text.empty()) << file;
    EXPECT_TRUE(is_valid_utf8(text)) << file;
  }
}

}  // namespace
}  // namespace cuprobe::test
