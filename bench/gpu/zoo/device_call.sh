#!/bin/bash
# One part of a device call (from the repository root): run.sh into /tmp/zoo_TAG, then
# the results packed into $OUT/TAG_*.tar (the device tool returns at most 8 files):
# TAG_meta.tar (truth.json, env.json, jobs.json, run.log, every log and truth_N.json),
# TAG_{shapes,noshapes,stack,record}.tar where there are such files.
# usage: bench/gpu/zoo/device_call.sh TAG [run.sh options]
#   passing programs of an earlier part: python3 bench/gpu/zoo/zoo_passing.py /tmp/zoo_TAG/jobs.json
set -u
TAG=$1; shift
D=/tmp/zoo_$TAG
mkdir -p "$OUT" "$D"
bash bench/gpu/zoo/run.sh "$D" "$@" 2>&1 | tee "$D/run.log"
cd "$D" || exit 1
tar cf "$OUT/${TAG}_meta.tar" run.log $(ls truth.json env.json jobs.json 2>/dev/null) \
  $(find results -name '*.log' -o -name 'truth_*.json')
for k in shapes noshapes stack record; do
  F=$(find results -name "$k*.gz")
  [ -n "$F" ] && tar cf "$OUT/${TAG}_$k.tar" $F
done
ls -la "$OUT"
