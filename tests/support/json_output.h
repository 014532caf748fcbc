// A verb's --json output, parsed; a test fails (with what the command printed)
// when it is not JSON.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run_cuprobe.h"

namespace cuprobe::test {

inline nlohmann::json json_stdout(const CommandResult& r) {
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
  return j;
}

}  // namespace cuprobe::test
