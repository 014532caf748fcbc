#!/bin/bash
# Step-time cost of `cuprobe record` on the decode-like loop, per recording option,
# in interleaved rounds (drift hits every variant alike); the target runs on CPUs
# 2-5 in every variant. Prints one table: median of the per-run step medians.
# usage: bench/gpu/record_cost.sh BINDIR OUTDIR [ROUNDS] [STEPS]
# LOOP= another workload that takes --tag and prints {"tag", "median_ms"} (e.g. the C++
# launch loop, bench/gpu/launch_loop.cu); VARIANTS= the rows below, or others.
# `--mode torch-profiler` rows are compared with the unrecorded row of the same other options.
set -u
BIN=$(cd "$1" && pwd); OUT=$2; ROUNDS=${3:-3}; STEPS=${4:-1000}
mkdir -p "$OUT"; T=/tmp/cuprobe-cost; rm -rf $T; mkdir -p $T
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
export PYTHONUNBUFFERED=1
LOOP=${LOOP:-"taskset -c 2-5 python3 bench/gpu/record_decode_loop.py --steps $STEPS"}
# tag | environment for cuprobe | record options ("-" = not recorded, "sample ..." = counters only) | loop options
VARIANTS=${VARIANTS:-"
plain||-|
record||record|
record-hw64|CUPROBE_PM_HW_BUFFER_MIB=64|record|
record-no-counters||record --no-counters|
record-kernel-only||record --no-counters --kinds kernel|
record-kernel-only-no-subscribe|CUPROBE_INJECT_SUBSCRIBE=none|record --no-counters --kinds kernel|
record-no-nvtx||record --no-counters --kinds kernel,memcpy,memset|
plain-graph||-|--graph
record-graph-whole||record --graphs whole|--graph
record-graph-events||record --graphs events|--graph
record-graph-node||record|--graph
torch-profiler||-|--mode torch-profiler
plain-alternate||-|--alternate 50
record-alternate||record --capture cuda-profiler|--alternate 50
"}
for r in $(seq 1 "$ROUNDS"); do
  while IFS='|' read -r tag envs rec loopopts; do
    [ -z "$tag" ] && continue
    if [ "$rec" = "-" ]; then
      $LOOP $loopopts --tag "$tag" >> $OUT/steps.jsonl 2>>$OUT/log.txt
    elif [ "${rec%% *}" = "sample" ]; then  # counters alone, nothing traced
      env $envs "$BIN/cuprobe" $rec -q -o /dev/null -- $LOOP $loopopts --tag "$tag" >> $OUT/steps.jsonl 2>>$OUT/log.txt
    else
      env $envs "$BIN/cuprobe" $rec -f -o $T/$tag.cuprobe -- $LOOP $loopopts --tag "$tag" >> $OUT/steps.jsonl 2>>$OUT/log.txt
    fi
  done <<< "$VARIANTS"
done
python3 - $OUT/steps.jsonl "$VARIANTS" <<'PYEOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
by = {}
for r in rows: by.setdefault(r["tag"], []).append(r["median_ms"])
variants = [l.split("|") for l in sys.argv[2].splitlines() if l.strip()]
order = [v[0] for v in variants]
# Each variant is compared with the first unrecorded one ("-") that runs the loop with the same options.
plain_for = {v[3].strip(): v[0] for v in reversed(variants) if v[2] == "-" and "--mode" not in v[3]}
for tag, _, _, loopopts in variants:
    v = by.get(tag, [])
    if not v: continue
    base_tag = plain_for.get(loopopts.replace("--mode torch-profiler", "").strip())
    if base_tag not in by: continue
    base = statistics.median(by[base_tag])
    m = statistics.median(v)
    print(f"{tag:34s} {m:7.3f} ms {((m/base)-1)*100:+7.2f}% vs {base_tag:20s} runs: {', '.join(f'{x:.3f}' for x in v)}")
# Alternating blocks inside one process: collection on vs off (the control, plain-alternate, should read ~1.00).
for tag in order:
    alt = [r for r in rows if r["tag"] == tag and "on_over_off" in r]
    if alt:
        ratios = [r["on_over_off"] for r in alt]
        print(f"{tag:34s} on/off blocks of {alt[0]['alternate']} steps: median ratio {statistics.median(ratios):.4f} "
              f"(runs: {', '.join(f'{x:.4f}' for x in ratios)})")
PYEOF
