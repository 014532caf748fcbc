#!/usr/bin/env bash
# Cost of `cuprobe sample` on the sampled work: bf16 GEMM loop throughput alone and
# with `cuprobe sample --interval 10ms` running, alternating A B B A, in one run.
#   bench/gpu/sample_cost.sh CUPROBE SAMPLE_LOADS [SECONDS]
set -uo pipefail
cuprobe=$1 loads=$2 secs=${3:-10}
tflops() { sed -n 's/.*= \([0-9.]*\) TFLOP\/s/\1/p'; }
declare -a base sampled
for order in A B B A; do
  if [ $order = A ]; then
    v=$("$loads" gemm "$secs" | tflops); base+=("$v")
  else
    v=$("$cuprobe" sample --interval 10ms -q -o /dev/null -- "$loads" gemm "$secs" | tflops); sampled+=("$v")
  fi
  echo "run $order: $v TFLOP/s"
done
python3 - "${base[@]}" "${sampled[@]}" <<'PY'
import sys
v = [float(x) for x in sys.argv[1:]]
a, b = v[:2], v[2:]
ma, mb = sum(a) / len(a), sum(b) / len(b)
print(f"without sampling: {ma:.1f} TFLOP/s (runs {a})")
print(f"with cuprobe sample --interval 10ms: {mb:.1f} TFLOP/s (runs {b})")
print(f"ratio: {mb / ma:.4f} (target >= 0.99) -> {'PASS' if mb / ma >= 0.99 else 'FAIL'}")
PY
