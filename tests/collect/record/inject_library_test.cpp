#include "collect/record/inject_library.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string file_of(const void* address) {
  Dl_info info{};
  return dladdr(address, &info) && info.dli_fname ? info.dli_fname : "";
}

// `record` preloads its library, except a program (the tests inject their own binary):
// the loader refuses to preload one.
TEST(InjectLibrary, ProgramsAreToldFromLibraries) {
  EXPECT_TRUE(is_elf_program(std::filesystem::read_symlink("/proc/self/exe").string()));
  std::string libstdcxx = file_of(dlsym(RTLD_DEFAULT, "_ZSt9terminatev"));  // std::terminate()
  ASSERT_NE(libstdcxx.find("libstdc++"), std::string::npos) << libstdcxx;
  EXPECT_FALSE(is_elf_program(libstdcxx));
  std::string text = test::write_temp_file("not_elf.so", "#!/bin/sh\n");
  EXPECT_FALSE(is_elf_program(text));
  EXPECT_FALSE(is_elf_program("/nonexistent/libx.so"));
  std::string truncated = test::write_temp_file("truncated.so", std::string("\x7f"
                                                                            "ELF\x02",
                                                                            5));
  EXPECT_FALSE(is_elf_program(truncated));
}

}  // namespace
}  // namespace cuprobe
