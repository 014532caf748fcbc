#!/bin/bash
# What `cuprobe record` costs a real model (issue 29): bench/gpu/model_cost.py (a 12-layer
# Llama from a config, random weights: eager `generate`, then decode replayed as a CUDA
# graph) run unrecorded, under each record mode, under CUPTI alone with less and less
# enabled (the floor: CUPROBE_INJECT_* switches, src/inject/inject_knobs.h), and under
# torch.profiler. One process per variant per round, pinned to CPUs 2-5, the order of the
# variants reversed every other round; prints per-process medians side by side
# (record_model_cost_table.py).
# usage: bench/gpu/record_model_cost.sh BINDIR OUTDIR [ROUNDS]
#   BINDIR holds cuprobe and libcuprobe_inject.so; BINDIR/before/libcuprobe_inject.so, when
#   present, gives the rows "before-*" (an earlier library under the same cuprobe).
#   DEADLINE_S=520: no process is started after that many seconds (the table keeps what ran).
#   VARIANTS= other rows: "tag|environment|record options (- = unrecorded)|workload options".
set -u
HERE=$(cd "$(dirname "$0")" && pwd); BIN=$(cd "$1" && pwd); OUT=$2; ROUNDS=${3:-3}; DEADLINE_S=${DEADLINE_S:-520}
mkdir -p "$OUT"; T=/tmp/cuprobe-model-cost; rm -rf $T; mkdir -p $T
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
export PYTHONUNBUFFERED=1
LOOP=${LOOP:-"taskset -c 2-5 python3 $HERE/model_cost.py"}
BEFORE="--inject-library $BIN/before/libcuprobe_inject.so"
NOTHING="CUPROBE_INJECT_KINDS=none CUPROBE_INJECT_DEVICE=0"
VARIANTS=${VARIANTS:-"
plain||-|
before-whole||record --graphs whole $BEFORE|
before-node||record $BEFORE|
inject-no-cupti|CUPROBE_INJECT_CUPTI=0|record --no-counters|
cupti-attached|CUPROBE_INJECT_SUBSCRIBE=none $NOTHING|record --no-counters|
cupti-subscribed|$NOTHING|record --no-counters|
floor-kernel|CUPROBE_INJECT_SUBSCRIBE=none CUPROBE_INJECT_KINDS=kernel CUPROBE_INJECT_DEVICE=0|record --no-counters|
floor-graph-trace|CUPROBE_INJECT_SUBSCRIBE=none $NOTHING CUPROBE_INJECT_GRAPH_TRACE=1|record --no-counters|
floor-kernel-graph|CUPROBE_INJECT_SUBSCRIBE=none CUPROBE_INJECT_KINDS=kernel CUPROBE_INJECT_DEVICE=0|record --no-counters --graphs whole|
whole-no-counters||record --no-counters --graphs whole|
whole||record --graphs whole|
node||record|
events||record --graphs events|
torch-profiler||-|--mode torch-profiler
"}
[ -e "$BIN/before/libcuprobe_inject.so" ] || VARIANTS=$(grep -v '^before-' <<< "$VARIANTS")
START=$SECONDS
for r in $(seq 1 "$ROUNDS"); do
  ORDER=$(grep -v '^[[:space:]]*$' <<< "$VARIANTS")
  [ $((r % 2)) -eq 0 ] && ORDER=$(tac <<< "$ORDER")
  while IFS='|' read -r tag envs rec opts; do
    if [ $((SECONDS - START)) -ge "$DEADLINE_S" ]; then echo "deadline: round $r stopped before $tag" >&2; break 2; fi
    if [ "$rec" = "-" ]; then
      $LOOP $opts --tag "$tag" >> $OUT/runs.jsonl 2>>$OUT/log.txt
    else
      env $envs "$BIN/cuprobe" $rec -f -o $T/$tag.cuprobe -- $LOOP $opts --tag "$tag" >> $OUT/runs.jsonl 2>>$OUT/log.txt
    fi
  done <<< "$ORDER"
done
python3 $HERE/record_model_cost_table.py $OUT/runs.jsonl "$VARIANTS" $T/node.cuprobe
