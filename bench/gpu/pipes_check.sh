#!/usr/bin/env bash
# The pipes preset against the triage preset on a steady bf16 GEMM, per interval, and
# the raw counters behind the tensor columns (.sum forms and elapsed cycles), to find
# where a sawtooth comes from (issue 29). Prints the per-row tensor columns.
#   bench/gpu/pipes_check.sh CUPROBE SAMPLE_LOADS OUT
set -uo pipefail
cuprobe=$1 loads=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cols() {  # print the named columns of a CSV, one row per line
  python3 - "$@" <<'PY'
import csv, sys
path, names = sys.argv[1], sys.argv[2:]
rows = list(csv.DictReader(open(path)))
keep = [n for n in (rows[0].keys() if rows else []) if any(n.startswith(x) for x in names)]
print(" ".join(keep))
for r in rows:
    print(" ".join(r[k] for k in keep))
PY
}
run() {  # name seconds interval sample-options...
  local name=$1 secs=$2 interval=$3; shift 3
  "$cuprobe" sample -q --gpu 0 --interval "$interval" -o "$out/$name.csv" "$@" -- "$loads" gemm "$secs" > /dev/null 2> "$out/$name.err"
  echo "== $name (interval $interval, $*) rc=$?"; tail -2 "$out/$name.err"
  cols "$out/$name.csv" tensor sm_active fma dram_pct TPC sm__ gr__ | head -40
}
run triage_100ms 4 100ms --preset triage
for iv in 10ms 100ms 1s; do run pipes_$iv $([ $iv = 1s ] && echo 8 || echo 4) $iv --preset pipes; done
tpc=TPC.TriageCompute.sm__pipe_tensor_op_hmma_cycles_active_realtime
m1="sm__pipe_tensor_cycles_active_realtime.sum,sm__cycles_elapsed.sum,sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"
run raw_dev_100ms 4 100ms --metrics "$m1"
run raw_tpc_100ms 4 100ms --metrics "$tpc.sum,$tpc.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.sum"
run raw_both_100ms 4 100ms --metrics "$m1,$tpc.sum,$tpc.avg.pct_of_peak_sustained_elapsed"
run raw_both_10ms 2 10ms --metrics "$m1,$tpc.sum,$tpc.avg.pct_of_peak_sustained_elapsed"
