#!/usr/bin/env bash
# The issue's speed check: decompress the 346 MiB trace once, then time
# `cuprobe analyze` against python3 json.load + a per-kernel-name sum, on the
# plain and the gzipped trace, and (SCALING=1) from 35 MiB to 1.4 GiB.
#   bash bench/analyze_speed.sh [TRACE.xz] [BASELINE_CUPROBE]
# BASELINE_CUPROBE: an earlier build of cuprobe, timed interleaved in the same run.
# The gzip and scaled inputs are written beside the plain one in $TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
src="${1:-../shared/traces/llama_bs4_decode_big.json.xz}"
work="${TMPDIR:-/tmp}/cuprobe-bench"
mkdir -p "$work"
plain="$work/$(basename "${src%.xz}")"
[[ -s "$plain" ]] || xz -dkc "$src" > "$plain"
[[ -x build/release/cuprobe ]] || bash scripts/setup.sh release
baseline=()
[[ -n ${2:-} ]] && baseline=(--baseline "$2")
scaling=()
[[ ${SCALING:-0} == 1 ]] && scaling=(--scaling)
exec python3 bench/analyze_speed.py --cuprobe build/release/cuprobe "${baseline[@]}" "${scaling[@]}" --runs "${RUNS:-5}" "$plain"
