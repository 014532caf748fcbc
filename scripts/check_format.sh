#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (.clang-format)
# makes of it, naming the files; `clang-format -i FILE` fixes one.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format > /dev/null; then
  echo "check_format: installing clang-format" >&2
  sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq clang-format >&2
fi
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
