// docs/cli.md lists every option of every verb: each long option a verb's
// --help shows is in that verb's table, and each option a table names exists.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

std::string read_doc() { return slurp(std::string(CUPROBE_TEST_DATA_DIR) + "/../../docs/cli.md"); }

// Every --name in text (std::regex trips GCC 12's -Wmaybe-uninitialized under ASan).
std::set<std::string> long_options(const std::string& text) {
  std::set<std::string> out;
  for (auto at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
    auto end = at + 2;
    while (end < text.size() && ((text[end] >= 'a' && text[end] <= 'z') || text[end] == '-')) ++end;
    if (end > at + 2 && text[at + 2] != '-') out.insert(text.substr(at, end - at));
    at = end - 2;
  }
  return out;
}

std::set<std::string> verbs() {
  auto help = run_cuprobe({"--help"});
  std::set<std::string> out;
  std::istringstream lines(help.out.substr(help.out.find("Verbs:")));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.size() < 3 || line.rfind("  ", 0) != 0 || line[2] < 'a' || line[2] > 'z') continue;
    std::string verb = line.substr(2, line.find(' ', 2) - 2);
    if (verb != "help") out.insert(verb);
  }
  return out;
}

// Long options in the option column of a verb's --help (first column, indented).
std::set<std::string> help_options(const std::string& verb) {
  std::istringstream lines(run_cuprobe({verb, "--help"}).out);
  std::set<std::string> out;
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("  -", 0) == 0) out.merge(long_options(line.substr(0, line.find("  ", 2))));
  }
  out.erase("--help");
  return out;
}

// Long options in the first column of the table under "### `cuprobe VERB".
std::set<std::string> doc_options(const std::string& doc, const std::string& verb) {
  auto start = doc.find("### `cuprobe " + verb + " ");
  if (start == std::string::npos) return {};
  auto end = doc.find("\n### ", start + 1);
  std::istringstream lines(doc.substr(start, end == std::string::npos ? std::string::npos : end - start));
  std::set<std::string> out;
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("| `", 0) == 0) out.merge(long_options(line.substr(0, line.find(" | "))));
  }
  return out;
}

TEST(CliDoc, ListsEveryOptionOfEveryVerb) {
  std::string doc = read_doc();
  ASSERT_FALSE(doc.empty());
  auto all = verbs();
  ASSERT_GE(all.size(), 8u);
  for (const auto& verb : all) {
    auto in_help = help_options(verb);
    auto in_doc = doc_options(doc, verb);
    EXPECT_FALSE(in_doc.empty()) << "docs/cli.md has no table for " << verb;
    for (const auto& o : in_help) EXPECT_TRUE(in_doc.count(o)) << "docs/cli.md misses " << verb << " " << o;
    for (const auto& o : in_doc)
      EXPECT_TRUE(in_help.count(o)) << "docs/cli.md lists " << verb << " " << o << ", which --help lacks";
  }
}

}  // namespace
}  // namespace cuprobe::test
