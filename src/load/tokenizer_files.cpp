#include "load/tokenizer_files.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "load/bpe_tokenizer.h"
#include "load/sentencepiece_tokenizer.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// A tokenizer.json is JSON; a SentencePiece model is a protocol buffer.
bool looks_like_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  for (int n = 0; n < 4096 && in.get(c) &&
                  (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\xEF' || c == '\xBB' || c == '\xBF');
       ++n) {
  }
  return c == '{';
}

std::unique_ptr<TokenCounter> load_file(const std::string& path) {
  if (looks_like_json(path)) return BpeTokenCounter::load(path);
  return SentencePieceCounter::load(path);
}

std::unique_ptr<TokenCounter> load_dir(const fs::path& dir) {
  fs::path json = dir / "tokenizer.json", model = dir / "tokenizer.model";
  if (is_file(json)) {
    try {
      return BpeTokenCounter::load(json.string());
    } catch (const InputError&) {
      if (!is_file(model)) throw;  // not byte-level and no SentencePiece model beside it
    }
  }
  if (is_file(model)) return SentencePieceCounter::load(model.string());
  throw Error(dir.string() + ": has neither tokenizer.json nor tokenizer.model");
}

}  // namespace

std::vector<std::string> hf_cache_dirs() {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& d) {
    if (!d.empty() && std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  };
  if (const char* v = std::getenv("HF_HUB_CACHE"); v && *v) add(v);
  if (const char* v = std::getenv("HF_HOME"); v && *v) add(std::string(v) + "/hub");
  if (const char* v = std::getenv("XDG_CACHE_HOME"); v && *v) add(std::string(v) + "/huggingface/hub");
  if (const char* v = std::getenv("HOME"); v && *v) add(std::string(v) + "/.cache/huggingface/hub");
  return dirs;
}

std::string hf_snapshot_dir(const std::string& model_id, const std::vector<std::string>& caches) {
  std::string folder = "models--" + model_id;
  for (std::size_t at = folder.find('/'); at != std::string::npos; at = folder.find('/', at + 2)) {
    folder.replace(at, 1, "--");
  }
  for (const std::string& cache : caches) {
    fs::path repo = fs::path(cache) / folder;
    if (!is_dir(repo)) continue;
    std::ifstream ref(repo / "refs" / "main");
    std::string revision;
    if (ref >> revision && is_dir(repo / "snapshots" / revision)) return (repo / "snapshots" / revision).string();
    // No refs/main (a download by revision): the one snapshot there is.
    std::vector<fs::path> snapshots;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(repo / "snapshots", ec)) {
      if (e.is_directory()) snapshots.push_back(e.path());
    }
    if (snapshots.size() == 1) return snapshots.front().string();
  }
  return "";
}

std::unique_ptr<TokenCounter> load_tokenizer(const std::string& spec) {
  if (is_file(spec)) return load_file(spec);
  if (is_dir(spec)) return load_dir(spec);
  std::vector<std::string> caches = hf_cache_dirs();
  bool model_id = spec.find('/') != std::string::npos && spec.front() != '/' && spec.rfind("./", 0) != 0 &&
                  spec.rfind("../", 0) != 0;
  if (model_id) {
    std::string snapshot = hf_snapshot_dir(spec, caches);
    if (!snapshot.empty()) return load_dir(snapshot);
  }
  std::string looked;
  for (const std::string& c : caches) looked += (looked.empty() ? "" : ", ") + c;
  throw Error("--tokenizer " + spec + ": no such file or directory" +
              (model_id ? ", and no model " + spec + " in the Hugging Face cache (" +
                              (looked.empty() ? std::string("no cache folder: HOME is unset") : looked) +
                              "); fetch it first (huggingface-cli download " + spec +
                              " tokenizer.json tokenizer.model) or pass its file"
                        : std::string()));
}

}  // namespace cuprobe
