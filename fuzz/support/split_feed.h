// Feeds a byte stream to an incremental parser in pieces: whole, one byte at a
// time, or in pieces of a given size. The parsers promise that where a read
// splits the stream changes nothing; the targets check it by comparing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace cuprobe::fuzz {

// feed(piece) returns false to stop (the parser failed).
template <class Feed>
void feed_in_pieces(std::string_view bytes, std::size_t piece, Feed&& feed) {
  if (piece == 0) piece = bytes.size();
  for (std::size_t at = 0; at < bytes.size(); at += piece) {
    if (!feed(bytes.substr(at, std::min(piece, bytes.size() - at)))) return;
  }
}

// Aborts with a finding when two parses of one stream disagree.
void split_mismatch(const char* what);

}  // namespace cuprobe::fuzz
