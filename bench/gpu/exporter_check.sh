#!/usr/bin/env bash
# On a GPU host: `cuprobe exporter` beside a bf16 GEMM load.
#   bench/gpu/exporter_check.sh CUPROBE SAMPLE_LOADS OUTDIR [PORT]
# 1. the exporter alone (GPU 0 busy with the GEMM): /metrics' tensor activity, scraped every
#    5 s, against `cuprobe sample`'s mean over the same load right after (the counters are
#    exclusive: the two cannot sample at once); they must agree within 2 points. NVML's power,
#    clocks, temperature, memory and clock event reasons are printed from both.
# 2. `cuprobe sample` holds the counters first: the exporter must say reason="busy", keep its
#    NVML series, and take the counters over once sample ends (retry with backoff).
# Leaves OUTDIR/metrics_h200.txt (a whole /metrics page under load, for the README),
# exporter.err, sample.csv and verdict lines on stdout. Exit 1 on a failed check.
set -uo pipefail
cuprobe=$1 loads=$2 out=$3 port=${4:-19401}
mkdir -p "$out"
fail=0
url="http://127.0.0.1:$port"
metric() {  # metric FILE NAME GPU → the value of NAME{gpu="GPU",...} in FILE
  awk -v n="$2" -v g="gpu=\"$3\"" 'index($0, n "{") == 1 && index($0, g) { print $NF; exit }' "$1"
}
wait_http() { for _ in $(seq 100); do curl -sf "$url/healthz" > /dev/null && return 0; sleep 0.1; done; return 1; }

"$loads" gemm 75 > "$out/gemm.log" 2>&1 &
gemm=$!
trap 'kill $gemm $exporter 2>/dev/null || true' EXIT
sleep 5  # the GEMM loop warms up

echo "== 1. exporter under a bf16 GEMM, then cuprobe sample"
"$cuprobe" exporter --listen "127.0.0.1:$port" --gpu 0 2> "$out/exporter.err" &
exporter=$!
wait_http || { echo "FAIL exporter did not answer"; exit 1; }
curl -s "$url/metrics" > /dev/null  # starts the first window
values=()
for i in 1 2 3; do
  sleep 5
  curl -s "$url/metrics" > "$out/metrics_$i.txt"
  v=$(metric "$out/metrics_$i.txt" DCGM_FI_PROF_PIPE_TENSOR_ACTIVE 0)
  echo "scrape $i: DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=0} = ${v:-missing}"
  values+=("${v:-nan}")
done
cp "$out/metrics_3.txt" "$out/metrics_h200.txt"
for m in DCGM_FI_DEV_POWER_USAGE DCGM_FI_DEV_SM_CLOCK DCGM_FI_DEV_MEM_CLOCK DCGM_FI_DEV_GPU_TEMP \
         DCGM_FI_DEV_FB_USED DCGM_FI_DEV_GPU_UTIL DCGM_FI_DEV_CLOCKS_EVENT_REASONS cuprobe_sample_age_seconds \
         cuprobe_window_samples; do
  echo "  $m{gpu=0} = $(metric "$out/metrics_3.txt" "$m" 0)"
done
grep '^cuprobe_clock_event_reason_active{gpu="0"' "$out/metrics_3.txt" | awk '$NF > 0' | sed 's/^/  /'
kill -TERM $exporter; wait $exporter; echo "exporter exit code: $? (0 expected)"
"$cuprobe" sample -q --gpu 0 --duration 10s -o "$out/sample.csv"
python3 - "$out/sample.csv" "${values[@]}" <<'PY' || fail=1
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def mean(col):
    v = [float(r[col]) for r in rows if r.get(col)]
    return sum(v) / len(v) if v else float("nan")
tensor = mean("tensor_active_pct")
print(f"sample: {len(rows)} rows, tensor_active_pct mean {tensor:.2f}; power {mean('power_w'):.1f} W, "
      f"SM {mean('sm_clock_mhz'):.0f} MHz, memory {mean('mem_clock_mhz'):.0f} MHz, {mean('temperature_c'):.0f} C, "
      f"util {mean('gpu_util_pct'):.0f}%, reasons seen {sorted({r['clock_event_reasons'] for r in rows})}")
scraped = [float(x) * 100 for x in sys.argv[2:] if x != "nan"]
ok = len(scraped) == 3 and all(abs(s - tensor) <= 2 for s in scraped)
print(("PASS" if ok else "FAIL"), "exporter tensor activity", [f"{s:.2f}" for s in scraped],
      f"within 2 points of sample's {tensor:.2f}")
power = mean("power_w")
plausible = 50 < power < 1000 and 500 < mean("sm_clock_mhz") < 2500
print(("PASS" if plausible else "FAIL"), "NVML power/clock plausible under load")
sys.exit(0 if ok and plausible else 1)
PY

echo "== 2. cuprobe sample holds the counters; the exporter says so and takes over after"
"$cuprobe" sample -q --gpu 0 --duration 8s -o "$out/sample_first.csv" &
sampler=$!
sleep 1
"$cuprobe" exporter --listen "127.0.0.1:$port" --gpu 0 2>> "$out/exporter.err" &
exporter=$!
wait_http || { echo "FAIL exporter did not answer"; exit 1; }
sleep 2
curl -s "$url/metrics" > "$out/metrics_busy.txt"
grep '^cuprobe_counters_available{gpu="0"' "$out/metrics_busy.txt"
if grep -q '^cuprobe_counters_available{gpu="0".*reason="busy"} 0' "$out/metrics_busy.txt" &&
   ! grep -q '^DCGM_FI_PROF_' "$out/metrics_busy.txt" && grep -q '^DCGM_FI_DEV_POWER_USAGE' "$out/metrics_busy.txt"; then
  echo "PASS busy counters: series gone, reason=busy, NVML flowing"
else
  echo "FAIL busy counters (metrics_busy.txt)"; fail=1
fi
wait $sampler
took=""
for i in $(seq 40); do
  sleep 1
  curl -s "$url/metrics" > "$out/metrics_after.txt"
  if grep -q '^cuprobe_counters_available{gpu="0".*reason="ok"} 1' "$out/metrics_after.txt" &&
     grep -q '^DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu="0"' "$out/metrics_after.txt"; then took=$i; break; fi
done
if [[ -n $took ]]; then echo "PASS counters taken over ${took}s after sample ended"; else echo "FAIL not taken over"; fail=1; fi
kill -TERM $exporter; wait $exporter
exit $fail
