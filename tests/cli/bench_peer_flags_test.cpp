// Every flag of vLLM's and SGLang's bench parsers (cli/bench_peer_flags.cpp has
// them transcribed, with the files and functions) is declared by `cuprobe bench`:
// with its meaning, or as a no-op with a note, or refused with the reason; and
// docs/bench.md lists every one bench has no meaning for.
#include "cli/bench_peer_flags.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cli/bench_flags.h"
#include "cli/bench_peer_args.h"
#include "common/error.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe {
namespace {

struct Declared {
  BenchFlags flags;
  CLI::App app{"bench"};
  Declared() { declare_bench_flags(app, flags); }
};

TEST(BenchPeerFlags, EveryPeerFlagIsDeclared) {
  Declared d;
  for (Peer peer : {Peer::kVllm, Peer::kSglang}) {
    EXPECT_GT(peer_flag_names(peer).size(), 80u);
    for (const std::string& name : peer_flag_names(peer))
      EXPECT_NE(d.app.get_option_no_throw(name), nullptr) << peer_name(peer) << " " << name;
  }
}

TEST(BenchPeerFlags, NoOpsAndRefusalsAreDocumented) {
  Declared d;
  const std::string doc = test::slurp(CUPROBE_SOURCE_DIR "/docs/bench.md");
  std::size_t section = doc.find("### The peers' other flags");
  ASSERT_NE(section, std::string::npos);
  std::string text = doc.substr(section);
  int hidden = 0;
  for (const CLI::Option* o : d.app.get_options([](const CLI::Option* o) { return o->get_group().empty(); })) {
    for (const std::string& l : o->get_lnames()) {
      const std::vector<std::string>& v = peer_flag_names(Peer::kVllm);
      const std::vector<std::string>& g = peer_flag_names(Peer::kSglang);
      if (std::find(v.begin(), v.end(), "--" + l) == v.end() && std::find(g.begin(), g.end(), "--" + l) == g.end())
        continue;  // cuprobe's own hidden deprecated spellings
      EXPECT_NE(text.find("| `--" + l), std::string::npos) << "--" << l;
      ++hidden;
    }
  }
  EXPECT_GT(hidden, 60);
}

std::vector<std::string> parsed(std::vector<std::string> args, Declared& d) {
  args.insert(args.begin(), "cuprobe bench");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::vector<std::string> known;
  for (const CLI::Option* o : d.app.get_options())
    for (const std::string& l : o->get_lnames()) known.push_back("--" + l);
  std::vector<std::string> out = normalize_bench_args(static_cast<int>(argv.size()), argv.data(), known);
  std::vector<std::string> rev(out.begin() + 1, out.end());
  std::reverse(rev.begin(), rev.end());
  d.app.parse(rev);
  return out;
}

TEST(BenchPeerFlags, NotesAndRefusals) {
  Declared d;
  parsed({"--trust-remote-code", "--chat-template-kwargs", "{}", "--no-stream"}, d);
  std::vector<std::string> notes = check_peer_only_flags(d.app);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0], "--no-stream: no effect here (datasets are read from local files, never streamed)");
  Declared r;
  parsed({"--hf-name", "x"}, r);
  try {
    check_peer_only_flags(r.app);
    FAIL() << "not refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    EXPECT_STREQ(e.what(), "--hf-name: Hugging Face datasets are not offered (bench reads local files)");
  }
}

// argparse's prefixes, against the peer's own flags only.
TEST(BenchPeerFlags, AbbreviationsAreThePeersOwn) {
  Declared d;
  std::vector<std::string> out = parsed({"--num-prompt", "3", "--random-input", "8", "--no-stream"}, d);
  EXPECT_EQ(out[1], "--num-prompts");
  EXPECT_EQ(out[3], "--random-input-len");
  EXPECT_EQ(out[5], "--no-stream");  // vLLM's own flag, not --no-stream-options
  EXPECT_FALSE(d.flags.no_stream_options);
  Declared s;  // SGLang's parser: --disable-ig is its --disable-ignore-eos
  out = parsed({"--backend", "sglang", "--disable-ig"}, s);
  EXPECT_EQ(out[3], "--disable-ignore-eos");
  Declared c;  // a prefix of a flag only cuprobe has stays as typed (then an unknown option)
  std::vector<std::string> args = {"cuprobe bench", "--no-stream-opt"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  EXPECT_EQ(normalize_bench_args(2, argv.data(), {"--no-stream-options"})[1], "--no-stream-opt");
}

}  // namespace
}  // namespace cuprobe
