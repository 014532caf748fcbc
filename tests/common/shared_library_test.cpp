#include "common/shared_library.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(SharedLibrary, OpensTheFirstNameThatLoadsAndSaysWhichFile) {
  OpenedLibrary lib = open_library({"libcuprobe_no_such_library.so.0", "libm.so.6"}, RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(lib);
  EXPECT_NE(lib.path.find("libm"), std::string::npos);
  EXPECT_TRUE(lib.error.empty());
}

TEST(SharedLibrary, SaysWhyNoNameOpened) {
  OpenedLibrary lib = open_library({"libcuprobe_no_such_library.so.0"}, RTLD_NOW | RTLD_LOCAL);
  EXPECT_FALSE(lib);
  EXPECT_NE(lib.error.find("libcuprobe_no_such_library.so.0"), std::string::npos);
}

TEST(SharedLibrary, ResolvesTheTableAndNamesMissingRequiredFunctions) {
  OpenedLibrary lib = open_library({"libm.so.6"}, RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(lib);
  double (*cosine)(double) = nullptr;
  double (*optional_missing)(double) = [](double x) { return x; };
  double (*required_missing)(double) = nullptr;
  EXPECT_EQ(resolve_symbols(lib, {required_symbol("cos", cosine)}), "");
  ASSERT_NE(cosine, nullptr);
  EXPECT_DOUBLE_EQ(cosine(0), 1.0);
  std::string error = resolve_symbols(lib, {optional_symbol("cuprobe_absent_a", optional_missing),
                                            required_symbol("cuprobe_absent_b", required_missing)});
  EXPECT_EQ(optional_missing, nullptr);  // absent: reset, not left as it was
  EXPECT_NE(error.find("lacks cuprobe_absent_b"), std::string::npos) << error;
  EXPECT_EQ(error.find("cuprobe_absent_a"), std::string::npos) << error;
}

}  // namespace
}  // namespace cuprobe
