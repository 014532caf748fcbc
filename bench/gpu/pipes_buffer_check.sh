#!/usr/bin/env bash
# Is the pipes preset's sawtooth the hardware buffer filling between decodes? The pipes
# preset on a steady bf16 GEMM with the hardware buffer and decode period overridden
# (CUPROBE_PM_HW_BUFFER_MIB, CUPROBE_PM_DECODE_MS), per interval: mean/min/max of the
# tensor column over the steady rows.
#   bench/gpu/pipes_buffer_check.sh CUPROBE SAMPLE_LOADS OUT
set -uo pipefail
cuprobe=$1 loads=$2 out=$3
mkdir -p "$out"
summary() {
  python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sm = [float(r["sm_active_pct"] or 0) for r in rows]
t = [float(r["tensor_active_pct"] or 0) for r, s in zip(rows, sm) if s > 90]
if not t:
    print("  no steady rows"); sys.exit()
print(f"  steady rows {len(t)}: tensor mean {sum(t)/len(t):.1f} min {min(t):.1f} max {max(t):.1f}; first 12: {[round(x) for x in t[:12]]}")
PY
}
for cfg in "100ms - -" "100ms 512 -" "100ms - 20" "100ms 512 20" "1s 512 20" "1s 2048 20" "10ms 512 10"; do
  set -- $cfg
  name="iv$1_hw$2_dec$3"
  env ${2:+$( [ "$2" != - ] && echo CUPROBE_PM_HW_BUFFER_MIB=$2)} ${3:+$( [ "$3" != - ] && echo CUPROBE_PM_DECODE_MS=$3)} \
    "$cuprobe" sample -q --gpu 0 --preset pipes --interval "$1" -o "$out/$name.csv" -- "$loads" gemm $([ $1 = 1s ] && echo 10 || echo 5) > /dev/null 2> "$out/$name.err"
  echo "== $name rc=$? $(grep -v 'left out' "$out/$name.err" | tail -1)"; summary "$out/$name.csv"
done
