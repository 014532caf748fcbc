#!/usr/bin/env bash
# The README's example output, captured on a GPU host: devices, sample around the
# bf16 GEMM loop, record -> analyze of the decode-like PyTorch loop.
#   bench/gpu/readme_capture.sh BINDIR SAMPLE_LOADS OUT
set -uo pipefail
BIN=$(cd "$1" && pwd) loads=$2 out=$3
mkdir -p "$out"
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
show() { echo "\$ $*"; "$@" 2>&1; echo; }
{
  show "$BIN/cuprobe" devices
  show "$BIN/cuprobe" sample --interval 10ms -o /tmp/gemm.csv --summary-json /tmp/gemm.json -- "$loads" gemm 5
  echo "\$ head -3 gemm.csv"; head -3 /tmp/gemm.csv; echo
  show "$BIN/cuprobe" record -f -o /tmp/decode.cuprobe -- python3 bench/gpu/record_decode_loop.py --tag recorded
  show "$BIN/cuprobe" analyze /tmp/decode.cuprobe
} | sed "s|$BIN/||" > "$out/readme_capture.txt"
cat "$out/readme_capture.txt"
