#!/usr/bin/env bash
# Windows and CUDA graphs: the target must run to the end and keep exactly the steps
# inside the window, whatever switches collection on (cudaProfilerStart, --delay), and
# a target's own cudaProfilerStop must not stop a default (`--capture all`) recording.
#   bench/gpu/record_graph_windows.sh BINDIR OUT
set -uo pipefail
BIN=$(cd "$1" && pwd) out=$2
mkdir -p "$out"
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
loop="python3 bench/gpu/record_decode_loop.py --graph"
fails=0
count() {  # RUN SQL -> number
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$1" "$2"
}
check() {  # NAME RUN EXIT SQL OP EXPECTED
  local got; got=$(count "$2" "$4")
  if [ "$3" = 0 ] && python3 -c "import sys; sys.exit(0 if ($got $5 $6) else 1)"; then v=PASS; else v=FAIL; fails=$((fails+1)); fi
  echo "$v  $1: exit $3, $4 -> $got (want $5 $6)"
}
steps="SELECT count(*) FROM ranges r JOIN names n ON n.id = r.name_id WHERE n.name = 'step'"
graphs="SELECT count(*) FROM graph_launches"
run() {  # TAG RECORD-OPTIONS... -- LOOP-OPTIONS...
  local tag=$1; shift
  "$BIN/cuprobe" record -f -o "$out/$tag.cuprobe" "$@" >> "$out/log.txt" 2>&1
}
run whole-profiler-once --graphs whole --no-counters --capture cuda-profiler -- $loop --steps 300 --profiler-api
check "whole, cuda-profiler around 300 steps" "$out/whole-profiler-once.cuprobe" $? "$graphs" "==" 300
run whole-profiler-alternate --graphs whole --no-counters --capture cuda-profiler -- $loop --steps 3000 --alternate 500
check "whole, cuda-profiler on 3 of 6 blocks of 500" "$out/whole-profiler-alternate.cuprobe" $? "$graphs" "==" 1500
run whole-delay --graphs whole --no-counters --delay 7s -- $loop --steps 8000
check "whole, --delay 7s (of ~12 s)" "$out/whole-delay.cuprobe" $? "$graphs" ">" 0
check "whole, --delay 7s leaves the first steps out" "$out/whole-delay.cuprobe" 0 "$graphs" "<" 8050
run node-all-target-stops --no-counters -- $loop --steps 300 --alternate 100
check "node, --capture all, target toggles cudaProfilerStop" "$out/node-all-target-stops.cuprobe" $? "$steps" "==" 350
run whole-all-target-stops --graphs whole --no-counters -- $loop --steps 300 --alternate 100
check "whole, --capture all, target toggles cudaProfilerStop" "$out/whole-all-target-stops.cuprobe" $? "$graphs" "==" 350
echo "failures: $fails"
exit $((fails > 0))
