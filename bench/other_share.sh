#!/usr/bin/env bash
# How much GPU time the kernel taxonomy leaves as `other` on real traces from other projects
# (tests/data/real_kernels/, sources in its README): per trace, total GPU time, the `other`
# share, the share decided by the launching operator, and the largest `other` names.
#   bash bench/other_share.sh [TOP]     TOP: how many `other` names per trace (default 5)
# It runs KernelTaxonomyRealKernels, the test that fails when a trace reaches 10% `other`.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=build/release/tests/cuprobe_tests
if [[ ! -x $tests ]]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j"$(nproc)" --target cuprobe_tests >/dev/null
fi
CUPROBE_OTHER_SHARE_TOP="${1:-5}" "$tests" --gtest_filter='KernelTaxonomyRealKernels.OtherStaysUnderTenPercentOfEveryTrace' \
  | grep -v -e '^\[' -e '^Running main' -e '^Note: Google Test filter' -e '^$'
