#!/usr/bin/env bash
# The known-load checks of sample_validate.sh, short: idle, bf16 GEMM, fp32 copy under
# `cuprobe sample --gpu 0 --interval 10ms [options]`, with the dropout count for the GEMM.
#   bench/gpu/sample_quick_check.sh CUPROBE SAMPLE_LOADS OUTDIR [sample options]
set -uo pipefail
cuprobe=$1 loads=$2 out=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for load in idle gemm copy; do
  launch=$(date +%s%N)
  "$cuprobe" sample -q --gpu 0 --interval 10ms -o "$out/$load.csv" "$@" -- "$loads" "$load" 5 > /dev/null
  python3 "$here/sample_check.py" "$load" "$out/$load.csv" "$launch"
done
python3 "$here/sample_dropout.py" "${*:-triage}" 10ms "$out/gemm.csv"
