// The taxonomy against kernel populations of real traces from other projects
// (tests/data/real_kernels/, sources in its README): on each, the kernel time no row and no
// launching operator places (`other`) must stay under 10%. bench/other_share.sh runs this
// test to print the per-trace table; CUPROBE_OTHER_SHARE_TOP=N adds each trace's N largest
// `other` names.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/kernel_taxonomy.h"
#include "analysis/kernel_taxonomy_ops.h"
#include "support/test_paths.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(CUPROBE_TEST_DATA_DIR) / "real_kernels";
constexpr double kOtherLimit = 0.10;

struct KernelRow {
  std::int64_t total_ns = 0;
  std::int64_t instances = 0;
  std::string launch_op;  // empty when the source did not record it ("-")
  std::string name;
};

// One corpus file: `#` comment lines, then `total_ns<TAB>instances<TAB>launch_op<TAB>name`.
// Returns the rows, or an error naming the line.
struct Parsed {
  std::vector<KernelRow> rows;
  std::string error;
};

bool parse_count(std::string_view s, std::int64_t& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && out >= 0;
}

Parsed parse_corpus(std::istream& in, const std::string& label) {
  Parsed p;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line.starts_with('#')) continue;
    std::vector<std::string_view> f;
    std::string_view rest = line;
    for (int i = 0; i < 3; ++i) {
      std::size_t tab = rest.find('\t');
      if (tab == std::string_view::npos) break;
      f.push_back(rest.substr(0, tab));
      rest.remove_prefix(tab + 1);
    }
    f.push_back(rest);
    KernelRow r;
    if (f.size() != 4 || f[3].empty()) {
      p.error = label + ":" + std::to_string(n) + ": expected 4 tab-separated fields with a kernel name";
    } else if (!parse_count(f[0], r.total_ns) || !parse_count(f[1], r.instances)) {
      p.error = label + ":" + std::to_string(n) + ": total_ns and instances must be non-negative integers";
    }
    if (!p.error.empty()) return p;
    if (f[2] != "-") r.launch_op = f[2];
    r.name = f[3];
    p.rows.push_back(std::move(r));
  }
  return p;
}

struct Share {
  std::int64_t total_ns = 0;
  std::int64_t other_ns = 0;
  std::int64_t by_launch_op_ns = 0;
  std::vector<const KernelRow*> other;  // largest first
  double other_share() const { return total_ns > 0 ? static_cast<double>(other_ns) / total_ns : 0.0; }
};

// What `cuprobe analyze` does per kernel: the name decides, else the launching operator.
Share measure(const std::vector<KernelRow>& rows) {
  Share s;
  for (const KernelRow& r : rows) {
    s.total_ns += r.total_ns;
    if (classify_kernel(r.name).category != Category::kOther) continue;
    if (!r.launch_op.empty()) {
      if (auto op = classify_operator(r.launch_op); op && op->category != Category::kOther) {
        s.by_launch_op_ns += r.total_ns;
        continue;
      }
    }
    s.other_ns += r.total_ns;
    s.other.push_back(&r);
  }
  std::stable_sort(s.other.begin(), s.other.end(),
                   [](const KernelRow* a, const KernelRow* b) { return a->total_ns > b->total_ns; });
  return s;
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kCorpus)) {
    if (e.path().extension() == ".tsv") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string percent(double x) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(1);
  o << 100.0 * x << "%";
  return o.str();
}

std::string top_other(const Share& s, std::size_t n) {
  std::ostringstream o;
  for (std::size_t i = 0; i < std::min(n, s.other.size()); ++i) {
    const KernelRow& r = *s.other[i];
    o << "      " << percent(static_cast<double>(r.total_ns) / s.total_ns) << "  " << r.name;
    if (!r.launch_op.empty()) o << "  [op " << r.launch_op << "]";
    o << "\n";
  }
  return o.str();
}

TEST(KernelTaxonomyRealKernels, OtherStaysUnderTenPercentOfEveryTrace) {
  const auto files = corpus_files();
  std::size_t top = 0;
  if (const char* env = std::getenv("CUPROBE_OTHER_SHARE_TOP")) top = std::strtoul(env, nullptr, 10);
  std::cout << "  trace                                      GPU ms   kernels   other  by launch op\n";
  for (const fs::path& file : files) {
    std::ifstream in(file);
    Parsed p = parse_corpus(in, file.filename().string());
    ASSERT_TRUE(p.error.empty()) << p.error;
    ASSERT_GE(p.rows.size(), 5u) << file.filename();
    Share s = measure(p.rows);
    std::ostringstream line;
    line.setf(std::ios::fixed);
    line.precision(1);
    line << "  " << std::left;
    line.width(40);
    line << file.stem().string() << std::right;
    line.width(10);
    line << s.total_ns / 1e6;
    line.width(10);
    line << p.rows.size();
    line.width(8);
    line << percent(s.other_share());
    line.width(14);
    line << percent(static_cast<double>(s.by_launch_op_ns) / s.total_ns) << "\n";
    std::cout << line.str() << top_other(s, top);
    EXPECT_LT(s.other_share(), kOtherLimit)
        << file.filename() << ": " << percent(s.other_share()) << " of GPU time is other; largest:\n"
        << top_other(s, 8);
  }
  EXPECT_GE(files.size(), 8u) << "the corpus is meant to hold varied traces";
}

TEST(KernelTaxonomyRealKernels, EveryCorpusFileIsListedWithItsSourceInTheReadme) {
  std::ifstream in(kCorpus / "README.md");
  ASSERT_TRUE(in) << "tests/data/real_kernels/README.md";
  std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const fs::path& file : corpus_files()) {
    EXPECT_NE(readme.find(file.filename().string()), std::string::npos) << file.filename() << " not in README.md";
    std::ifstream f(file);
    std::string first;
    std::getline(f, first);
    EXPECT_TRUE(first.starts_with("# source: ")) << file.filename() << " must start with its source";
  }
}

TEST(KernelTaxonomyRealKernels, TheLaunchingOperatorDecidesUnknownNamesAndMalformedLinesAreReported) {
  std::istringstream good(
      "# source: test\n"
      "100\t1\taten::_efficient_attention_backward\tmy_fused_backward_kernel\n"
      "50\t1\t-\tmy_unknown_kernel\n"
      "850\t2\t-\tampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_32x6_tn\n");
  Parsed p = parse_corpus(good, "good");
  ASSERT_TRUE(p.error.empty()) << p.error;
  Share s = measure(p.rows);
  EXPECT_EQ(s.total_ns, 1000);
  EXPECT_EQ(s.by_launch_op_ns, 100);
  EXPECT_EQ(s.other_ns, 50);
  ASSERT_EQ(s.other.size(), 1u);
  EXPECT_EQ(s.other[0]->name, "my_unknown_kernel");

  std::istringstream short_line("# source: test\n10\t1\tname_without_op\n");
  EXPECT_EQ(parse_corpus(short_line, "bad").error, "bad:2: expected 4 tab-separated fields with a kernel name");
  std::istringstream bad_number("12x\t1\t-\tk\n");
  EXPECT_EQ(parse_corpus(bad_number, "bad").error, "bad:1: total_ns and instances must be non-negative integers");
}

}  // namespace
}  // namespace cuprobe
