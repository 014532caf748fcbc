#include "net/hpack_decoder.h"

#include <array>
#include <cstdint>

#include "common/error.h"
#include "net/hpack_huffman.h"
#include "net/hpack_integer.h"

namespace cuprobe {
namespace {

constexpr std::size_t kEntryOverhead = 32;

std::size_t entry_size(const HeaderField& f) { return f.name.size() + f.value.size() + kEntryOverhead; }

// RFC 7541 Appendix A; index 1 is the first entry.
const std::array<HeaderField, 61>& static_table() {
  static const std::array<HeaderField, 61> table = {{
      {":authority", ""},
      {":method", "GET"},
      {":method", "POST"},
      {":path", "/"},
      {":path", "/index.html"},
      {":scheme", "http"},
      {":scheme", "https"},
      {":status", "200"},
      {":status", "204"},
      {":status", "206"},
      {":status", "304"},
      {":status", "400"},
      {":status", "404"},
      {":status", "500"},
      {"accept-charset", ""},
      {"accept-encoding", "gzip, deflate"},
      {"accept-language", ""},
      {"accept-ranges", ""},
      {"accept", ""},
      {"access-control-allow-origin", ""},
      {"age", ""},
      {"allow", ""},
      {"authorization", ""},
      {"cache-control", ""},
      {"content-disposition", ""},
      {"content-encoding", ""},
      {"content-language", ""},
      {"content-length", ""},
      {"content-location", ""},
      {"content-range", ""},
      {"content-type", ""},
      {"cookie", ""},
      {"date", ""},
      {"etag", ""},
      {"expect", ""},
      {"expires", ""},
      {"from", ""},
      {"host", ""},
      {"if-match", ""},
      {"if-modified-since", ""},
      {"if-none-match", ""},
      {"if-range", ""},
      {"if-unmodified-since", ""},
      {"last-modified", ""},
      {"link", ""},
      {"location", ""},
      {"max-forwards", ""},
      {"proxy-authenticate", ""},
      {"proxy-authorization", ""},
      {"range", ""},
      {"referer", ""},
      {"refresh", ""},
      {"retry-after", ""},
      {"server", ""},
      {"set-cookie", ""},
      {"strict-transport-security", ""},
      {"transfer-encoding", ""},
      {"user-agent", ""},
      {"vary", ""},
      {"via", ""},
      {"www-authenticate", ""},
  }};
  return table;
}

}  // namespace

HpackDecoder::HpackDecoder(std::size_t max_table_size, std::size_t max_list_size)
    : max_table_size_(max_table_size), max_list_size_(max_list_size), capacity_(max_table_size) {}

const HeaderField& HpackDecoder::field_at(std::uint32_t index) const {
  const auto& fixed = static_table();
  if (index == 0) throw Error("HPACK: index 0");
  if (index <= fixed.size()) return fixed[index - 1];
  std::size_t dynamic = index - fixed.size() - 1;
  if (dynamic >= table_.size()) throw Error("HPACK: index " + std::to_string(index) + " beyond the tables");
  return table_[dynamic];
}

std::string HpackDecoder::read_string(std::string_view in, std::size_t* pos) const {
  if (*pos >= in.size()) throw Error("HPACK: header block ends before a string");
  bool huffman = (static_cast<unsigned char>(in[*pos]) & 0x80) != 0;
  std::uint32_t length = hpack_get_integer(in, pos, 7);
  if (length > in.size() - *pos) throw Error("HPACK: string runs past the header block");
  if (length > max_list_size_) throw Error("HPACK: string longer than the header list limit");
  std::string_view raw = in.substr(*pos, length);
  *pos += length;
  return huffman ? hpack_huffman_decode(raw) : std::string(raw);
}

void HpackDecoder::evict_to(std::size_t limit) {
  while (size_ > limit && !table_.empty()) {
    size_ -= entry_size(table_.back());
    table_.pop_back();
  }
}

void HpackDecoder::insert(HeaderField field) {
  std::size_t size = entry_size(field);
  if (size > capacity_) {  // §4.4: too large for the table empties it
    evict_to(0);
    return;
  }
  evict_to(capacity_ - size);
  size_ += size;
  table_.push_front(std::move(field));
}

std::vector<HeaderField> HpackDecoder::decode(std::string_view block) {
  std::vector<HeaderField> fields;
  std::size_t pos = 0, list_size = 0;
  while (pos < block.size()) {
    auto first = static_cast<unsigned char>(block[pos]);
    if ((first & 0xe0) == 0x20) {  // §6.3 dynamic table size update
      if (!fields.empty()) throw Error("HPACK: table size update after a header field");
      std::uint32_t size = hpack_get_integer(block, &pos, 5);
      if (size > max_table_size_) throw Error("HPACK: table size update above the advertised maximum");
      capacity_ = size;
      evict_to(capacity_);
      continue;
    }
    HeaderField f;
    if (first & 0x80) {  // §6.1 indexed
      f = field_at(hpack_get_integer(block, &pos, 7));
    } else {
      // §6.2: with incremental indexing (01), without (0000), never indexed (0001)
      bool indexing = (first & 0xc0) == 0x40;
      std::uint32_t name_index = hpack_get_integer(block, &pos, indexing ? 6 : 4);
      f.name = name_index != 0 ? field_at(name_index).name : read_string(block, &pos);
      f.value = read_string(block, &pos);
      if (indexing) insert(f);
    }
    list_size += entry_size(f);
    if (list_size > max_list_size_) throw Error("HPACK: header list larger than " + std::to_string(max_list_size_));
    fields.push_back(std::move(f));
  }
  return fields;
}

}  // namespace cuprobe
