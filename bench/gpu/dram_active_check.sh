#!/usr/bin/env bash
# On a GPU host: DCGM_FI_PROF_DRAM_ACTIVE served under CUPTI (issue 35 item 7), beside a copy load.
#   bench/gpu/dram_active_check.sh CUPROBE SAMPLE_LOADS OUTDIR [PORT]
# SAMPLE_LOADS is bench/gpu/sample_loads.cu built there (bench/gpu/README.md).
# 1. idle GPU 0: the exporter's DCGM_FI_PROF_DRAM_ACTIVE{gpu="0"} is a ratio under 0.05.
# 2. GPU 0 under `sample_loads copy` (fp32 device-to-device, ~82% of peak DRAM throughput on an H200):
#    three scrapes 5 s apart, each a ratio in (0.5, 1]; beside it cuprobe_dram_throughput_active
#    (bytes against the peak, a different figure) is printed.
# 3. `cuprobe sample` right after under the same load (the counters are exclusive): its column
#    dram_active_pct (the triage preset, dram__cycles_active.avg.pct_of_peak_sustained_elapsed) / 100
#    agrees with the scrapes within 0.03; the preset still opens in one pass (sample would fail otherwise).
# Leaves OUTDIR/{idle,copy_1,copy_2,copy_3}.txt (the pages), sample.csv, exporter*.err; verdict lines
# on stdout. Exit 1 on a failed check.
set -uo pipefail
cuprobe=$1 loads=$2 out=$3 port=${4:-19411}
mkdir -p "$out"
fail=0
url="http://127.0.0.1:$port"
metric() {  # metric FILE NAME GPU -> the value of NAME{gpu="GPU",...} in FILE
  awk -v n="$2" -v g="gpu=\"$3\"" 'index($0, n "{") == 1 && index($0, g) { print $NF; exit }' "$1"
}
wait_http() { for _ in $(seq 100); do curl -sf "$url/healthz" > /dev/null && return 0; sleep 0.1; done; return 1; }
in_range() { python3 -c "import sys; v=float(sys.argv[1]); sys.exit(0 if $2 else 1)" "$1"; }
exporter=""
load=""
trap 'kill $load $exporter 2>/dev/null || true' EXIT

start_exporter() {  # start_exporter NAME
  "$cuprobe" exporter --listen "127.0.0.1:$port" --gpu 0 2> "$out/exporter_$1.err" &
  exporter=$!
  wait_http || { echo "FAIL exporter did not answer"; exit 1; }
  curl -s "$url/metrics" > /dev/null  # starts the first window
}
stop_exporter() { kill -TERM "$exporter"; wait "$exporter"; echo "exporter exit code: $? (0 expected)"; exporter=""; }

echo "== 1. idle"
start_exporter idle
sleep 5
curl -s "$url/metrics" > "$out/idle.txt"
v=$(metric "$out/idle.txt" DCGM_FI_PROF_DRAM_ACTIVE 0)
echo "idle: DCGM_FI_PROF_DRAM_ACTIVE{gpu=0} = ${v:-missing}"
if [[ -n "$v" ]] && in_range "$v" "0 <= v < 0.05"; then echo "PASS idle DRAM_ACTIVE under 0.05"; else
  echo "FAIL idle DRAM_ACTIVE (${v:-missing})"; fail=1; fi
stop_exporter

echo "== 2. copy load"
"$loads" copy 60 > "$out/copy.log" 2>&1 &
load=$!
sleep 5  # the copy loop warms up
start_exporter copy
values=()
for i in 1 2 3; do
  sleep 5
  curl -s "$url/metrics" > "$out/copy_$i.txt"
  v=$(metric "$out/copy_$i.txt" DCGM_FI_PROF_DRAM_ACTIVE 0)
  t=$(metric "$out/copy_$i.txt" cuprobe_dram_throughput_active 0)
  echo "scrape $i: DCGM_FI_PROF_DRAM_ACTIVE{gpu=0} = ${v:-missing}, cuprobe_dram_throughput_active = ${t:-missing}"
  if [[ -n "$v" ]] && in_range "$v" "0.5 < v <= 1.0"; then echo "PASS scrape $i DRAM_ACTIVE in (0.5, 1]"; else
    echo "FAIL scrape $i DRAM_ACTIVE (${v:-missing})"; fail=1; fi
  values+=("${v:-nan}")
done
grep -E '^# (HELP|TYPE) DCGM_FI_PROF_DRAM_ACTIVE' "$out/copy_3.txt" | sed 's/^/  /'
stop_exporter

echo "== 3. cuprobe sample under the same load"
if "$cuprobe" sample -q --gpu 0 --duration 8s -o "$out/sample.csv" 2> "$out/sample.err"; then
  python3 - "$out/sample.csv" "${values[@]}" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
vals = [float(r["dram_active_pct"]) for r in rows if r.get("dram_active_pct")]
if not vals:
    print("FAIL sample has no dram_active_pct column/values"); sys.exit(1)
mean = sum(vals) / len(vals) / 100
scraped = [float(x) for x in sys.argv[2:] if x != "nan"]
print(f"sample: {len(rows)} rows, dram_active_pct mean {mean * 100:.2f}% (ratio {mean:.4f}); scraped {scraped}")
ok = len(scraped) == 3 and all(abs(s - mean) <= 0.03 for s in scraped)
print(("PASS" if ok else "FAIL"), "exporter's DRAM_ACTIVE = sample's dram_active_pct / 100 within 0.03")
sys.exit(0 if ok else 1)
PY
else
  echo "FAIL cuprobe sample (the triage preset with dram_active_pct): $(tail -1 "$out/sample.err")"; fail=1
fi
kill "$load" 2>/dev/null; wait "$load" 2>/dev/null
tail -1 "$out/copy.log"
exit $fail
