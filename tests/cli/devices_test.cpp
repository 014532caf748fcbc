#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

TEST(DevicesCli, HelpAndUsage) {
  EXPECT_EQ(run_cuprobe({"devices", "--help"}).exit_code, 0);
  EXPECT_EQ(run_cuprobe({"devices", "--bogus"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"devices", "--max-idle-memory", "lots"}).exit_code, 2);
}

// Where no driver/GPU is usable (CI): exit 3 with the reason; --json still prints
// a valid document saying why.
TEST(DevicesCli, WithoutGpuSaysWhyAndExits3) {
  auto text = run_cuprobe({"devices"});
  if (text.exit_code == 0) GTEST_SKIP() << "a GPU is usable here";
  EXPECT_EQ(text.exit_code, 3);
  EXPECT_EQ(text.out, "");
  EXPECT_NE(text.err.find("cuprobe devices: no "), std::string::npos) << text.err;
  auto json = run_cuprobe({"devices", "--json"});
  EXPECT_EQ(json.exit_code, 3);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["schema"], "cuprobe.devices/1");
  EXPECT_TRUE(j["gpus"].empty());
  EXPECT_TRUE(j["error_status"] == "no_driver" || j["error_status"] == "no_gpu");
  // Not idle when there is no GPU to launch on.
  EXPECT_NE(run_cuprobe({"devices", "--require-idle"}).exit_code, 0);
}

}  // namespace
}  // namespace cuprobe::test
