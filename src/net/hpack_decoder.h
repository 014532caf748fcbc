// The HPACK decoder (RFC 7541) of one HTTP/2 connection's response headers:
// the static table, the dynamic table with its size updates, Huffman strings.
// It bounds what a hostile peer can make it hold: the table at the size cuprobe
// advertised, each header list at a maximum size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace cuprobe {

struct HeaderField {
  std::string name, value;
  bool operator==(const HeaderField&) const = default;
};

class HpackDecoder {
 public:
  // `max_table_size`: SETTINGS_HEADER_TABLE_SIZE as advertised (the ceiling of size updates);
  // `max_list_size`: the most one block may decode to (names + values + 32 per field).
  explicit HpackDecoder(std::size_t max_table_size = 4096, std::size_t max_list_size = 64 * 1024);

  // The fields of one complete header block, in order; throws Error on anything malformed
  // (after which the connection's table is unusable: the caller drops the connection).
  std::vector<HeaderField> decode(std::string_view block);

  // The dynamic table, newest first, and its size as RFC 7541 §4.1 counts it.
  const std::deque<HeaderField>& table() const { return table_; }
  std::size_t table_size() const { return size_; }

 private:
  const HeaderField& field_at(std::uint32_t index) const;
  std::string read_string(std::string_view in, std::size_t* pos) const;
  void insert(HeaderField field);
  void evict_to(std::size_t limit);

  std::size_t max_table_size_, max_list_size_, capacity_;
  std::deque<HeaderField> table_;
  std::size_t size_ = 0;
};

}  // namespace cuprobe
