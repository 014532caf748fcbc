#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite twice: a release build, then a
# build under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"
for preset in release sanitize; do
  echo "== $preset" >&2
  bash scripts/setup.sh "$preset"
  ctest --preset "$preset" -j "$jobs" --timeout 600
done
