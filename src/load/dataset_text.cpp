#include "load/dataset_text.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <random>
#include <thread>

namespace cuprobe {
namespace {

constexpr const char* kWords[] = {
    "the",  "of",   "and",   "to",    "in",    "is",    "it",   "you",   "that",   "he",   "was",  "for",   "on",
    "are",  "as",   "with",  "his",   "they",  "at",    "be",   "this",  "have",   "from", "or",   "one",   "had",
    "by",   "word", "but",   "not",   "what",  "all",   "were", "we",    "when",   "your", "can",  "said",  "there",
    "use",  "an",   "each",  "which", "she",   "do",    "how",  "their", "if",     "will", "up",   "other", "about",
    "out",  "many", "then",  "them",  "these", "so",    "some", "her",   "would",  "make", "like", "him",   "into",
    "time", "has",  "look",  "two",   "more",  "write", "go",   "see",   "number", "no",   "way",  "could", "people",
    "my",   "than", "first", "water", "been",  "call",  "who",  "oil",   "its",    "now",  "find", "long",  "down",
    "day",  "did",  "get",   "come",  "made",  "may",   "part"};

constexpr const char* kShortWords[] = {"of", "to", "in", "is", "it", "on", "as", "at", "by", "we"};

constexpr int kMaxTries = 24;

}  // namespace

std::uint64_t text_stream(std::uint64_t seed, std::uint64_t kind, std::uint64_t index) {
  return (seed * 0x9E3779B97F4A7C15ull) ^ (kind << 56) ^ (index * 0xBF58476D1CE4E5B9ull + 1);
}

std::string word_text(std::uint64_t stream, std::int64_t words) {
  std::mt19937_64 rng(stream);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kWords) - 1);
  std::string text;
  text.reserve(static_cast<std::size_t>(std::max<std::int64_t>(words, 0)) * 6);
  for (std::int64_t i = 0; i < words; ++i) {
    if (i) text += ' ';
    text += kWords[pick(rng)];
  }
  return text;
}

FittedText fit_text(TokenCounter& counter, std::uint64_t stream, std::int64_t target) {
  target = std::max<std::int64_t>(target, 1);
  // A longer prefix never has fewer tokens: guess by the tokens per word seen,
  // then bisect between the longest prefix below the target and the shortest above.
  std::map<std::int64_t, std::int64_t> tried;  // words → tokens
  std::int64_t lo = 0, hi = -1;                // words: below the target / above it (-1: none yet)
  std::int64_t words = target, exact = -1;
  for (int i = 0; i < kMaxTries; ++i) {
    std::int64_t tokens = counter.count(word_text(stream, words));
    tried[words] = tokens;
    if (tokens == target) {
      exact = words;
      break;
    }
    if (tokens < target) {
      lo = std::max(lo, words);
    } else {
      hi = hi < 0 ? words : std::min(hi, words);
    }
    if (hi >= 0 && hi - lo <= 1) break;
    std::int64_t guess = tokens > 0 ? words * target / tokens : words * 2;
    if (hi >= 0) guess = std::clamp(guess, lo + 1, hi - 1);
    if (tried.count(guess)) guess = hi >= 0 ? (lo + hi) / 2 : guess + (tokens < target ? 1 : -1);
    words = std::max<std::int64_t>(1, guess);
    if (tried.count(words)) break;
  }
  std::int64_t best = exact >= 0 ? exact : (lo > 0 ? lo : tried.begin()->first);
  FittedText fitted;
  fitted.text = word_text(stream, best);
  fitted.tokens = tried[best];
  // The next word overshoots: close the gap with short words (one token in any vocabulary).
  for (int i = 0, tries = 0; fitted.tokens < target && tries < kMaxTries; ++i, ++tries) {
    std::string longer = fitted.text + " " + kShortWords[i % std::size(kShortWords)];
    std::int64_t tokens = counter.count(longer);
    if (tokens <= target) {
      fitted.text = std::move(longer);
      fitted.tokens = tokens;
    }
  }
  fitted.exact = fitted.tokens == target;
  return fitted;
}

void for_each_count(TokenCounter& counter, std::size_t n, const std::function<void(std::size_t)>& each) {
  std::size_t threads = counter.concurrent() ? std::min<std::size_t>(8, n) : 1;
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::exception_ptr error;
  auto work = [&] {
    for (std::size_t i; (i = next++) < n;) {
      try {
        each(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next = n;
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

void fit_all(TokenCounter& counter, std::vector<FitJob>& jobs) {
  for_each_count(counter, jobs.size(),
                 [&](std::size_t i) { jobs[i].fitted = fit_text(counter, jobs[i].stream, jobs[i].target); });
}

std::vector<std::int64_t> count_all(TokenCounter& counter, const std::vector<std::string>& texts) {
  std::vector<std::int64_t> counts(texts.size());
  for_each_count(counter, texts.size(), [&](std::size_t i) { counts[i] = counter.count(texts[i]); });
  return counts;
}

}  // namespace cuprobe
