#!/usr/bin/env bash
# Checks the formatting (.clang-format), then sets up, builds and runs the whole
# test suite twice: a release build (then clang-tidy over src/, .clang-tidy, with
# its compile database; only the files that changed since a clean check), then a
# build under AddressSanitizer + UndefinedBehaviorSanitizer at -O1 -g1 (ASan's
# recommended level; line tables are all its reports need; the sanitize build is
# the largest part of CI's time and -O1 costs 0.62x the CPU of -O2,
# bench/sanitize_compile_cost.sh). Installs the test-only packages (setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phase.sh
jobs="$(nproc)"
phase format bash scripts/check_format.sh format
for preset in release sanitize; do
  echo "== $preset" >&2
  phase "build $preset" bash scripts/setup.sh "$preset"
  [[ $preset == release ]] && phase tidy bash scripts/check_format.sh tidy
  phase "ctest $preset" ctest --preset "$preset" -j "$jobs" --timeout 600
done
