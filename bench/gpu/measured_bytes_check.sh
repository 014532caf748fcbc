#!/usr/bin/env bash
# On a GPU host: DRAM bytes measured per kernel from a run file's counters
# (docs/findings.md, "Work per kernel"). Records sample_loads' copy (2 GiB read,
# 2 GiB written per call) and cast (1 GiB fp8 read, 2 GiB bf16 written) with the
# default counters and checks that `analyze --json` gives each kernel
# dram_bytes_measured / work_calls within 5% of its known bytes per call.
#   bench/gpu/measured_bytes_check.sh BINDIR SAMPLE_LOADS OUT [INTERVAL]
set -uo pipefail
BIN=$(cd "$1" && pwd) loads=$2 out=$3 interval=${4:-10ms}
mkdir -p "$out"
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/env.txt"
status=0
for load in copy cast; do
  "$BIN/cuprobe" record -f --interval "$interval" -o "$out/$load.cuprobe" -- "$loads" "$load" 3 2>&1 | tee "$out/$load.record.txt"
  "$BIN/cuprobe" analyze --json "$out/$load.cuprobe" >"$out/$load.json"
  "$BIN/cuprobe" analyze "$out/$load.cuprobe" >"$out/$load.txt"
  python3 - "$out/$load.json" "$load" <<'PY' || status=1
import json, sys
r = json.load(open(sys.argv[1])); load = sys.argv[2]
want = {"copy": 2 * (2 << 30), "cast": (1 << 30) * 3}[load]
rank = r["ranks"][0]
k = next(k for k in rank["kernels"] if k["name"].startswith(load + "_kernel"))
ran = next((c["ran_share"] for c in (rank.get("counters") or {}).get("by_kernel", []) if c["key"] == k["name"]), None)
print(f"{load}: {k['calls']} calls, {k['time_ms']:.1f} ms, ran_share {ran}, work_source {k.get('work_source')}")
if k.get("dram_bytes_measured") is None:
    print(f"FAIL {load}: no dram_bytes_measured"); sys.exit(1)
per_call = k["dram_bytes_measured"] / k["work_calls"]
ok = abs(per_call - want) <= 0.05 * want
print(f"{'PASS' if ok else 'FAIL'} {load}: {per_call / 1e9:.3f} GB measured per call, {want / 1e9:.3f} GB known "
      f"({per_call / want - 1:+.1%}); {k['achieved_tbps']:.2f} TB/s, peak share {k.get('peak_share')}")
sys.exit(0 if ok else 1)
PY
done
echo "RESULT: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
