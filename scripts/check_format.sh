#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (.clang-format)
# makes of it, naming the files; `clang-format -i FILE` fixes one. Then runs
# clang-tidy (.clang-tidy: no function in src/ over 100 lines) over src/, when
# a release build's compile database is there (`cmake --preset release`): only
# over the files that changed, or whose headers did, since a clean check.
#   check_format.sh [all|format|tidy]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
install_tool() {  # COMMAND PACKAGE
  command -v "$1" > /dev/null && return
  echo "check_format: installing $2" >&2
  sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "$2" >&2
}

if [[ $what == all || $what == format ]]; then
  install_tool clang-format clang-format
  mapfile -t files < <(git ls-files '*.cpp' '*.h' 2> /dev/null || find src tests fuzz bench -name '*.cpp' -o -name '*.h')
  bad=()
  for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" > /dev/null 2>&1 || bad+=("$f")
  done
  if ((${#bad[@]})); then
    echo "check_format: ${#bad[@]} file(s) not formatted (clang-format -i FILE): ${bad[*]}" >&2
    exit 1
  fi
  echo "check_format: ${#files[@]} files formatted" >&2
fi

if [[ $what == all || $what == tidy ]]; then
  db=build/release/compile_commands.json
  if [[ ! -f $db ]]; then
    echo "check_format: clang-tidy skipped: no $db (run cmake --preset release first)" >&2
    exit 0
  fi
  install_tool clang-tidy clang-tidy
  # The src/ files this build compiles (CUPTI's only where the CUDA toolkit was found), each re-checked only
  # when it or a header it includes changed since a clean check (scripts/clang_tidy_cached.py: the cache is
  # ~/.cache/cuprobe/clang-tidy). -Wno-unknown-warning-option: the database holds g++ flags clang does not know.
  if ! python3 scripts/clang_tidy_cached.py build/release --jobs "$(nproc)" --extra-arg=-Wno-unknown-warning-option; then
    echo "check_format: clang-tidy (.clang-tidy) failed" >&2
    exit 1
  fi
fi
