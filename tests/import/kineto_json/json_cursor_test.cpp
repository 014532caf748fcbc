#include "import/kineto_json/json_cursor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "common/error.h"

namespace cuprobe {
namespace {

// A tiny window and tiny reads force every token across refill boundaries.
struct Fixture {
  explicit Fixture(std::string text, std::size_t window = 8, std::size_t max_read = 3)
      : source(memory_byte_source(std::move(text), max_read)), cursor(*source, "t.json", window) {}
  std::unique_ptr<ByteSource> source;
  JsonCursor cursor;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JsonCursor, ReadsObjectAcrossTinyWindows) {
  Fixture f(
      R"J(  {"name": "a long kernel name that exceeds the window", "ts": 12.5, "args": {"x": [1, {"y": "}"}]}} )J");
  auto& c = f.cursor;
  c.expect('{');
  std::string_view key;
  bool first = true;
  ASSERT_TRUE(c.next_key(key, first));
  EXPECT_EQ(key, "name");
  EXPECT_EQ(c.string(), "a long kernel name that exceeds the window");
  ASSERT_TRUE(c.next_key(key, first));
  EXPECT_EQ(key, "ts");
  EXPECT_EQ(c.number(), "12.5");
  ASSERT_TRUE(c.next_key(key, first));
  EXPECT_EQ(key, "args");
  c.skip_value();
  EXPECT_FALSE(c.next_key(key, first));
  EXPECT_TRUE(c.at_end());
}

TEST(JsonCursor, UnescapesStrings) {
  Fixture f(R"J("a\"b\\c\/d\n\u00e9\ud83d\ude00")J");
  EXPECT_EQ(f.cursor.string(), "a\"b\\c/d\n\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(JsonCursor, SkipsStringsWithEscapedQuotesAcrossWindows) {
  Fixture f(R"J([ "x\\\"}]", {"k": "\\"}, 3 ] 7 )J", 4, 1);  // a number must not end the file
  f.cursor.skip_value();
  EXPECT_EQ(f.cursor.number(), "7");
}

TEST(JsonCursor, ErrorsCarryTheByteOffset) {
  EXPECT_EQ(error_of([] {
              Fixture f(R"J({"a" 1})J");
              f.cursor.expect('{');
              std::string_view k;
              bool first = true;
              f.cursor.next_key(k, first);
            }),
            "t.json: byte 5: invalid JSON: expected ':', found '1'");
  EXPECT_NE(error_of([] {
              Fixture f(R"J(["unterminated)J");
              f.cursor.skip_value();
            }).find("truncated"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              Fixture f("\"bad \\q escape\"");
              f.cursor.string();
            }).find("bad escape"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              Fixture f("\"raw\x01control\"");
              f.cursor.string();
            }).find("control character"),
            std::string::npos);
}

// Reads [n, n, ...] number by number, as the importer reads fields.
void read_numbers(JsonCursor& c) {
  c.expect('[');
  bool first = true;
  while (c.next_element(first)) c.number();
  if (!c.at_end()) c.fail("trailing data");
}

TEST(JsonCursor, ATextCutAnywhereIsAnUnexpectedEndOfFile) {
  const std::string doc = "[12345678, -0.25, 6.5e3, 1700000000000000.125, 7]";
  for (std::size_t window : {4u, 5u, 8u, 16u, 64u}) {
    for (std::size_t max_read : {1u, 3u, 7u, 64u}) {
      for (std::size_t cut = 1; cut < doc.size(); ++cut) {
        std::string err = error_of([&] {
          Fixture f(doc.substr(0, cut), window, max_read);
          read_numbers(f.cursor);
        });
        ASSERT_EQ(err.rfind("t.json: byte " + std::to_string(cut) + ": unexpected end of file", 0), 0u)
            << "cut " << cut << " window " << window << " read " << max_read << ": " << err;
      }
      Fixture whole(doc, window, max_read);
      EXPECT_NO_THROW(read_numbers(whole.cursor));
    }
  }
}

TEST(JsonCursor, ANumberStraddlingTheWindowComesBackWhole) {
  // The window is full after "[1, 22"; the rest of the number needs a refill.
  Fixture f("[1, 223344556677]", 6, 6);
  auto& c = f.cursor;
  c.expect('[');
  bool first = true;
  ASSERT_TRUE(c.next_element(first));
  EXPECT_EQ(c.number(), "1");
  ASSERT_TRUE(c.next_element(first));
  EXPECT_EQ(c.number(), "223344556677");
}

TEST(JsonCursor, ARawValueComesBackWholeAcrossRefillsWithWhatFollows) {
  // A window of 4 bytes: the value is kept whole while it is skipped (the window grows).
  Fixture f(R"J({"k": [1, "a]\"b", {"x": null}], "next": 2})J", 4, 1);
  auto& c = f.cursor;
  c.expect('{');
  std::string_view key;
  bool first = true;
  ASSERT_TRUE(c.next_key(key, first));
  auto raw = c.raw_value(5);
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->text.substr(0, raw->size), R"J([1, "a]\"b", {"x": null}])J");
  EXPECT_EQ(raw->text.substr(raw->size), R"J(, "ne)J");
  EXPECT_EQ(raw->offset, 6u);
  ASSERT_TRUE(c.next_key(key, first));
  EXPECT_EQ(key, "next");
  EXPECT_EQ(c.number(), "2");
}

TEST(JsonCursor, ARawValueAtTheEndOfTheFileHasAShortTail) {
  Fixture f("[1] ", 4, 1);
  auto raw = f.cursor.raw_value(16);
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->text, "[1] ");
  EXPECT_EQ(raw->size, 3u);
}

TEST(JsonCursor, ARawValueThatWouldNotSkipLeavesTheCursorWhereItWas) {
  Fixture f(R"J(  ["open", [1, 2)J", 4, 1);
  EXPECT_FALSE(f.cursor.raw_value(16));
  // The value is read again, from its start, and meets the error skip_value meets.
  EXPECT_EQ(f.cursor.peek(), '[');
  EXPECT_NE(error_of([&] { f.cursor.skip_value(); }).find("byte 16: unexpected end of file"), std::string::npos);
}

// A random value of nested arrays and objects whose strings hold brackets, quotes and
// backslashes, some long enough to cross 64-byte blocks; `cut` of them cut short.
std::string random_value(std::mt19937& rng, int depth) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const char* pieces[] = {"[", "]", "{", "}", "\\\"", "\\\\", "x", " ", ":", ","};
  switch (depth > 6 ? pick(3) : pick(6)) {
    case 0:
      return std::to_string(pick(100000));
    case 1:
      return pick(2) ? "true" : "null";
    case 2: {
      std::string text = "\"";
      for (int n = pick(3) ? pick(8) : pick(120); n > 0; --n) text += pieces[pick(10)];
      return text + "\"";
    }
    case 3:
    case 4: {
      std::string text = "[";
      for (int n = pick(5); n > 0; --n) text += random_value(rng, depth + 1) + (n > 1 ? ", " : "");
      return text + "]";
    }
    default: {
      std::string text = "{";
      for (int n = pick(5); n > 0; --n) text += "\"k]\": " + random_value(rng, depth + 1) + (n > 1 ? ", " : "");
      return text + "}";
    }
  }
}

TEST(JsonCursor, SkippingInBlocksSeesWhatSkippingByteByByteSees) {
  // A big window skips 64 bytes at a time; a window of 8 never can: both must end (or fail) alike.
  std::mt19937 rng(7);
  auto skip = [](const std::string& text, std::size_t window, std::size_t max_read) {
    return error_of([&] {
      Fixture f(text, window, max_read);
      f.cursor.skip_value();
      throw InputError("t.json", static_cast<long long>(f.cursor.offset()), "ended");
    });
  };
  int compared = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = "[" + random_value(rng, 0) + "] ";
    if (i % 3 == 0) text = text.substr(0, rng() % text.size());             // cut short
    if (i % 7 == 0) text += std::string(600, '[') + std::string(600, ']');  // too deep
    if (i % 11 == 0) std::replace(text.begin(), text.end(), ']', '}');      // mismatched
    ASSERT_EQ(skip(text, 1 << 16, 1 << 16), skip(text, 8, 3)) << text;
    ++compared;
  }
  EXPECT_EQ(compared, 3000);
}

TEST(JsonCursor, RejectsDeepNesting) {
  std::string deep(100000, '[');
  EXPECT_NE(error_of([&] {
              Fixture f(deep, 1 << 16, 1 << 16);
              f.cursor.skip_value();
            }).find("nested too deeply"),
            std::string::npos);
}

}  // namespace
}  // namespace cuprobe
