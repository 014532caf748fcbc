#pragma once
// Where the test suite finds its inputs and the programs it runs: CUPROBE_TEST_DATA_DIR,
// CUPROBE_BINARY, CUPROBE_BUILD_DIR, CUPROBE_CMAKE_COMMAND, CUPROBE_SHARED_TRACES_DIR,
// CUPROBE_SOURCE_DIR and CUPROBE_FAKE_NVML, as string literals written by tests/CMakeLists.txt.
#include "tests/test_paths_generated.h"
