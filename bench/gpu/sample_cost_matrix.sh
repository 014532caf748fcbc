#!/usr/bin/env bash
# The sampler's own CPU cost under a bf16 GEMM load, per hardware-buffer size,
# decode period, interval and metric set, in one run; prints one table.
# Needs a GPU, cuprobe and sample_loads (see sample_validate.sh).
#   bench/gpu/sample_cost_matrix.sh CUPROBE SAMPLE_LOADS OUTDIR [SECONDS]
set -uo pipefail
cuprobe=$1 loads=$2 out=$3 secs=${4:-15}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; : > "$out/cost.jsonl"
run() {  # HW_MIB DECODE_MS INTERVAL SECONDS [sample options]  (0 = cuprobe's default)
  local hw=$1 dp=$2 iv=$3 sec=$4; shift 4
  CUPROBE_DECODE_PROFILE=1 CUPROBE_PM_HW_BUFFER_MIB=$hw CUPROBE_PM_DECODE_MS=$dp \
    python3 "$here/sample_cpu.py" "$cuprobe" "$loads" "$sec" "$out/s.csv" "$iv" "$@" | tee -a "$out/log.txt" |
    tail -1 >> "$out/cost.jsonl"
}
P=.avg.pct_of_peak_sustained_elapsed
NO_TPC=sm__cycles_active$P,sm__pipe_tensor_cycles_active_realtime$P,gr__cycles_active$P,dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second,dram__throughput$P,pcie__read_bytes.sum.per_second,pcie__write_bytes.sum.per_second
# hw MiB | decode ms | interval | seconds | options   (CONFIGS overrides; 0 = default)
CONFIGS=${CONFIGS:-"
0|0|1ms|$secs|
0|0|10ms|$secs|
0|0|100ms|$secs|
0|0|1ms|$secs|--metrics $NO_TPC
0|0|1ms|$secs|--metrics sm__pipe_tensor_cycles_active_realtime$P,dram__throughput$P
4|0|1ms|10|
64|500|1ms|10|
"}
while IFS='|' read -r hw dp iv sec opts; do
  [ -z "$iv" ] && continue
  run "$hw" "$dp" "$iv" "$sec" $opts
done <<< "$CONFIGS"
python3 - "$out/cost.jsonl" <<'PY'
import json, sys
print(f"{'hw MiB':>6} {'dec ms':>6} {'intvl':>6} {'metrics':>8} {'samples':>8} {'CPU %':>7} {'steady%':>7} {'RSS KiB':>17}  profile")
for l in open(sys.argv[1]):
    r = json.loads(l)
    e = r["env"]
    m = str(r["options"].count(",") + 1) if r["options"] else "triage"
    print(f"{e.get('CUPROBE_PM_HW_BUFFER_MIB','?'):>6} {e.get('CUPROBE_PM_DECODE_MS','?'):>6} {r['interval']:>6} {m:>8} "
          f"{r['samples']:>8} {r['cpu_pct']:>7.2f} {str(r['steady_cpu_pct']):>7} {str(r['rss_first_kib'])+'->'+str(r['rss_last_kib']):>17}  "
          f"{r['profile'].replace('cuprobe decode profile: ','')} lost={r.get('lost')}")
PY
