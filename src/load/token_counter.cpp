#include "load/token_counter.h"

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "net/http_fetch.h"

namespace cuprobe {

std::int64_t count_words(const std::string& text) {
  std::int64_t words = 0;
  bool in_word = false;
  for (char c : text) {
    bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

ServerTokenCounter::ServerTokenCounter(HttpUrl server, HttpClientConfig client, std::string model,
                                       std::chrono::nanoseconds timeout)
    : server_(std::move(server)), client_(std::move(client)), model_(std::move(model)), timeout_(timeout) {}

std::int64_t ServerTokenCounter::count(const std::string& text) {
  nlohmann::json body = {{"prompt", text}, {"add_special_tokens", false}};
  if (!model_.empty()) body["model"] = model_;
  std::string payload = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  HttpFetchResult r;
  std::string path;
  for (int attempt = 0; attempt < 2; ++attempt) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      path = path_;
    }
    ++calls_;
    r = http_fetch(server_, client_, "POST", server_.path + path, payload, timeout_);
    std::lock_guard<std::mutex> lock(mu_);
    if (r.responded && r.status == 404 && path == "/tokenize" && !settled_) {
      path_ = "/v1/tokenize";
      settled_ = true;
      continue;
    }
    if (r.responded) settled_ = true;
    break;
  }
  std::string where = server_.base() + server_.path + path;
  if (!r.responded) throw Error("tokenize: " + where + ": " + r.error + " (" + r.detail + ")");
  if (r.status < 200 || r.status >= 300) {
    throw Error("tokenize: " + where + " answered HTTP " + std::to_string(r.status) + ": " + r.body.substr(0, 200));
  }
  if (r.body_bytes > r.body.size()) {
    throw Error("tokenize: " + where + " answered " + std::to_string(r.body_bytes) + " bytes, more than the " +
                std::to_string(r.body.size()) +
                " read (the token ids of a long prompt): count with --tokenizer tokenizer.json or --token-count words");
  }
  nlohmann::json doc = nlohmann::json::parse(r.body, nullptr, false);
  if (doc.is_object()) {
    if (auto it = doc.find("count"); it != doc.end() && it->is_number_integer() && it->get<std::int64_t>() >= 0) {
      return it->get<std::int64_t>();
    }
    if (auto it = doc.find("tokens"); it != doc.end() && it->is_array()) return static_cast<std::int64_t>(it->size());
  }
  throw Error("tokenize: " + where + " answered without \"count\" or \"tokens\": " + r.body.substr(0, 200));
}

std::string ServerTokenCounter::method() const {
  std::lock_guard<std::mutex> lock(mu_);
  return "server " + path_;
}

std::unique_ptr<TokenCounter> make_token_counter(const std::string& mode, const HttpUrl& server,
                                                 const HttpClientConfig& client, const std::string& model,
                                                 std::string& note) {
  if (mode == "words") return std::make_unique<WordCounter>();
  if (mode != "server" && mode != "auto") throw Error("--token-count must be auto, server or words", kExitUsage);
  auto counter = std::make_unique<ServerTokenCounter>(server, client, model);
  try {
    counter->count("hello world");
  } catch (const Error& e) {
    if (mode == "server") throw;
    note = std::string("prompt lengths in words: ") + e.what();
    return std::make_unique<WordCounter>();
  }
  return counter;
}

}  // namespace cuprobe
