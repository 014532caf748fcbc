// How bench counts prompt tokens when it builds a workload: the server's own
// tokenizer (POST /tokenize, as vLLM and SGLang serve it), or words (split on
// white space) when the server has none. Every count goes through one of these,
// so a report can say which method its lengths are in.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

class TokenCounter {
 public:
  virtual ~TokenCounter() = default;
  virtual std::int64_t count(const std::string& text) = 0;
  // "server /tokenize" or "words"; names the unit of every length in the report.
  virtual std::string method() const = 0;
  virtual std::uint64_t calls() const { return 0; }
  // count() may be called from several threads at once.
  virtual bool concurrent() const { return false; }
};

// Runs of non-white-space characters.
std::int64_t count_words(const std::string& text);

class WordCounter final : public TokenCounter {
 public:
  std::int64_t count(const std::string& text) override { return count_words(text); }
  std::string method() const override { return "words"; }
  bool concurrent() const override { return true; }
};

// POST {path}/tokenize {"model", "prompt", "add_special_tokens": false} →
// {"count": N} or {"tokens": [...]}; /v1/tokenize when /tokenize is 404.
// Special tokens are left out: the length is the text's own, as vLLM's random
// dataset counts it. Throws cuprobe::Error (exit 1) naming the call that failed.
class ServerTokenCounter final : public TokenCounter {
 public:
  ServerTokenCounter(HttpUrl server, HttpClientConfig client, std::string model,
                     std::chrono::nanoseconds timeout = std::chrono::seconds(30));
  std::int64_t count(const std::string& text) override;
  std::string method() const override;
  std::uint64_t calls() const override { return calls_.load(); }
  bool concurrent() const override { return true; }

 private:
  HttpUrl server_;
  HttpClientConfig client_;
  std::string model_;
  std::chrono::nanoseconds timeout_;
  mutable std::mutex mu_;
  std::string path_ = "/tokenize";  // /v1/tokenize once /tokenize was 404
  bool settled_ = false;            // a call has answered: the path stays
  std::atomic<std::uint64_t> calls_{0};
};

// `auto`: the server's /tokenize when one answers a test call, else words; the
// reason for the fallback goes to `note`. `server`: /tokenize or an error.
// `words`: words.
std::unique_ptr<TokenCounter> make_token_counter(const std::string& mode, const HttpUrl& server,
                                                 const HttpClientConfig& client, const std::string& model,
                                                 std::string& note);

}  // namespace cuprobe
