#!/usr/bin/env bash
# The sampler's own CPU cost under a bf16 GEMM load, per hardware-buffer size,
# decode period, interval and metric set, in one run; prints one table.
# Needs a GPU, cuprobe and sample_loads (see sample_validate.sh).
#   bench/gpu/sample_cost_matrix.sh CUPROBE SAMPLE_LOADS OUTDIR [SECONDS]
set -uo pipefail
cuprobe=$1 loads=$2 out=$3 secs=${4:-15}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; : > "$out/cost.jsonl"
run() {  # HW_MIB DECODE_MS INTERVAL [sample options]
  local hw=$1 dp=$2 iv=$3; shift 3
  CUPROBE_DECODE_PROFILE=1 CUPROBE_PM_HW_BUFFER_MIB=$hw CUPROBE_PM_DECODE_MS=$dp \
    python3 "$here/sample_cpu.py" "$cuprobe" "$loads" "$secs" "$out/s.csv" "$iv" "$@" | tee -a "$out/log.txt" |
    tail -1 >> "$out/cost.jsonl"
}
for hw in 64 16 4 1; do run $hw 50 1ms; done
for hw in 64 4; do run $hw 500 1ms; done
run 4 50 10ms
run 4 50 1ms --metrics sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
python3 - "$out/cost.jsonl" <<'PY'
import json, sys
print(f"{'hw MiB':>6} {'dec ms':>6} {'intvl':>6} {'metrics':>8} {'samples':>8} {'CPU %':>7} {'RSS KiB':>17}  profile")
for l in open(sys.argv[1]):
    r = json.loads(l)
    e = r["env"]
    m = "2" if r["options"] else "triage"
    print(f"{e.get('CUPROBE_PM_HW_BUFFER_MIB','?'):>6} {e.get('CUPROBE_PM_DECODE_MS','?'):>6} {r['interval']:>6} {m:>8} "
          f"{r['samples']:>8} {r['cpu_pct']:>7.2f} {str(r['rss_first_kib'])+'->'+str(r['rss_last_kib']):>17}  "
          f"{r['profile'].replace('cuprobe decode profile: ','')}")
PY
