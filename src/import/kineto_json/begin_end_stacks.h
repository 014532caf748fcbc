// Chrome-trace duration events: a 'B' opens a slice on its thread (pid, tid)
// and the next 'E' on that thread closes the innermost one still open. A file
// parsed in two parts pairs each part's own events; the later part's 'E's that
// found nothing open are kept, in file order, and close the earlier part's
// still-open 'B's when the parts are joined, exactly as one pass would.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace cuprobe {

template <typename Begin, typename End>
class BeginEndStacks {
 public:
  using Thread = std::pair<std::int64_t, std::int64_t>;  // pid, tid

  void begin(Thread thread, Begin b) { open_[thread].push_back(std::move(b)); }

  // The innermost open 'B' of the thread, removed; nullopt (and `e` kept as unmatched) if none.
  std::optional<Begin> end(Thread thread, const End& e) {
    auto it = open_.find(thread);
    if (it == open_.end() || it->second.empty()) {
      unmatched_ends_.emplace_back(thread, e);
      return std::nullopt;
    }
    Begin b = std::move(it->second.back());
    it->second.pop_back();
    return b;
  }

  // Joins the part that follows this one in the file: its unmatched 'E's close this part's
  // open 'B's (`pair(begin, end)` for each), then its open 'B's nest inside this part's.
  template <typename Pair>
  void join(BeginEndStacks&& later, Pair&& pair) {
    for (auto& [thread, e] : later.unmatched_ends_) {
      if (auto b = end(thread, e)) pair(std::move(*b), e);
    }
    for (auto& [thread, opened] : later.open_) {
      auto& mine = open_[thread];
      for (auto& b : opened) mine.push_back(std::move(b));
    }
  }

  const std::vector<std::pair<Thread, End>>& unmatched_ends() const { return unmatched_ends_; }
  template <typename Fn>
  void for_each_open(Fn&& fn) const {
    for (const auto& [thread, opened] : open_) {
      for (const auto& b : opened) fn(b);
    }
  }

 private:
  std::map<Thread, std::vector<Begin>> open_;
  std::vector<std::pair<Thread, End>> unmatched_ends_;
};

}  // namespace cuprobe
