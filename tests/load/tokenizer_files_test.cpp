#include "load/tokenizer_files.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "load/sentencepiece_tokenizer.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

// Lays out a model as huggingface_hub caches it: blobs, a snapshot of links, refs/main.
std::string fake_cache(const std::string& model_id, const std::vector<std::string>& files, bool with_ref = true) {
  std::string cache = test::temp_dir() + "/hub";
  std::string folder =
      "models--" + model_id.substr(0, model_id.find('/')) + "--" + model_id.substr(model_id.find('/') + 1);
  fs::path repo = fs::path(cache) / folder;
  fs::path snapshot = repo / "snapshots" / "0123abcd";
  fs::create_directories(snapshot);
  fs::create_directories(repo / "blobs");
  for (const std::string& f : files) {
    fs::path blob = repo / "blobs" / ("blob-" + fs::path(f).filename().string());
    fs::copy_file(test::data_path(f), blob);
    fs::create_symlink(fs::path("../../blobs") / blob.filename(), snapshot / fs::path(f).filename());
  }
  if (with_ref) {
    fs::create_directories(repo / "refs");
    std::ofstream(repo / "refs" / "main") << "0123abcd";
  }
  return cache;
}

void rename_in_snapshot(const std::string& cache, const std::string& folder, const std::string& from,
                        const std::string& to) {
  fs::path snap = fs::path(cache) / folder / "snapshots" / "0123abcd";
  fs::rename(snap / from, snap / to);
}

TEST(TokenizerFiles, FindsAModelInTheHuggingFaceCache) {
  std::string cache = fake_cache("acme/Byte-3B", {"bpe/llama3.json"});
  rename_in_snapshot(cache, "models--acme--Byte-3B", "llama3.json", "tokenizer.json");
  std::string snapshot = hf_snapshot_dir("acme/Byte-3B", {"/nonexistent", cache});
  EXPECT_EQ(snapshot, cache + "/models--acme--Byte-3B/snapshots/0123abcd");
  EXPECT_EQ(hf_snapshot_dir("acme/Other", {cache}), "");

  setenv("HF_HUB_CACHE", cache.c_str(), 1);
  auto t = load_tokenizer("acme/Byte-3B");
  unsetenv("HF_HUB_CACHE");
  EXPECT_EQ(t->method(), "tokenizer " + snapshot + "/tokenizer.json");
  EXPECT_GT(t->count("Hello world"), 0);
}

TEST(TokenizerFiles, CacheFoldersFromTheEnvironment) {
  const char* home = getenv("HOME");
  std::string saved = home ? home : "";
  setenv("HF_HUB_CACHE", "/a/hub", 1);
  setenv("HF_HOME", "/b", 1);
  setenv("HOME", "/c", 1);
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(hf_cache_dirs(), (std::vector<std::string>{"/a/hub", "/b/hub", "/c/.cache/huggingface/hub"}));
  unsetenv("HF_HUB_CACHE");
  unsetenv("HF_HOME");
  EXPECT_EQ(hf_cache_dirs(), (std::vector<std::string>{"/c/.cache/huggingface/hub"}));
  setenv("HOME", saved.c_str(), 1);
}

TEST(TokenizerFiles, DirectoryPrefersByteLevelJsonElseSentencePiece) {
  if (!sentencepiece_unavailable().empty()) GTEST_SKIP() << sentencepiece_unavailable();
  // Llama 2's layout: a tokenizer.json that is not byte-level, and tokenizer.model.
  std::string dir = test::temp_dir() + "/llama2";
  fs::create_directories(dir);
  std::ofstream(dir + "/tokenizer.json") << R"({"model": {"type": "BPE", "vocab": {}, "merges": []},
                                              "pre_tokenizer": {"type": "Metaspace"}})";
  fs::copy_file(test::data_path("spm/llama2.model"), dir + "/tokenizer.model");
  EXPECT_EQ(load_tokenizer(dir)->method(), "sentencepiece " + dir + "/tokenizer.model");
  // A model without refs/main: its one snapshot.
  std::string cache = fake_cache("acme/Spm-7B", {"spm/gemma.model"}, false);
  rename_in_snapshot(cache, "models--acme--Spm-7B", "gemma.model", "tokenizer.model");
  setenv("HF_HUB_CACHE", cache.c_str(), 1);
  EXPECT_EQ(load_tokenizer("acme/Spm-7B")->method().rfind("sentencepiece ", 0), 0u);
  unsetenv("HF_HUB_CACHE");
  // A file is read by what it holds.
  EXPECT_EQ(load_tokenizer(test::data_path("spm/t5.model"))->method().rfind("sentencepiece ", 0), 0u);
  EXPECT_EQ(load_tokenizer(test::data_path("bpe/gpt2.json"))->method().rfind("tokenizer ", 0), 0u);
}

TEST(TokenizerFiles, NothingFoundSaysWhereItLooked) {
  setenv("HF_HUB_CACHE", "/nonexistent/hub", 1);
  try {
    load_tokenizer("meta-llama/Llama-3.1-8B");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("no model meta-llama/Llama-3.1-8B in the Hugging Face cache (/nonexistent/hub"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("huggingface-cli download meta-llama/Llama-3.1-8B"), std::string::npos) << what;
  }
  unsetenv("HF_HUB_CACHE");
  std::string empty = test::temp_dir();
  EXPECT_THROW(load_tokenizer(empty), Error);
  EXPECT_THROW(load_tokenizer("/nonexistent/tokenizer.json"), Error);
}

}  // namespace
}  // namespace cuprobe
