#!/usr/bin/env bash
# Does a clone in another folder hit the compiler cache an earlier clone filled?
# (docs/ci.md: CI builds from a fresh clone.) Clones HEAD twice into two
# folders, builds one small target (default cuprobe_common) in each, for each
# preset given (default: release sanitize fuzz), with a private, empty ccache
# and the environment scripts/setup.sh exports; prints the second clone's hits
# and misses. Every compile of the second clone should be a hit.
#   bash bench/ccache_clone_hits.sh [PRESET...]      (CUPROBE_CCACHE_TARGET=cuprobe_model ...)
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("$@")
((${#presets[@]})) || presets=(release sanitize fuzz)
target="${CUPROBE_CCACHE_TARGET:-cuprobe_common}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CCACHE_DIR="$work/ccache"
for clone in a b; do git clone -q . "$work/clone_$clone"; done
stat() {  # the counter named $1 from ccache's machine-readable statistics
  ccache --print-stats | awk -v k="$1" '$1 == k {print $2}'
}
for preset in "${presets[@]}"; do
  for clone in a b; do
    ccache --zero-stats > /dev/null
    (
      cd "$work/clone_$clone"
      export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true  # as scripts/setup.sh
      cmake --preset "$preset" -DCUPROBE_BUILD_TESTS=OFF > /dev/null
      cmake --build --preset "$preset" -j "$(nproc)" --target "$target" > /dev/null
    )
    hits=$(($(stat direct_cache_hit) + $(stat preprocessed_cache_hit)))
    misses=$(stat cache_miss)
    echo "$preset: clone $clone ($work/clone_$clone): $hits hits, $misses misses"
  done
done
