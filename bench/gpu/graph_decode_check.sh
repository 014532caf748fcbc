#!/usr/bin/env bash
# Steps of a CUDA-graph decode loop (bench/gpu/graph_decode.py: eager warm-up, then
# N replays of a 24-layer step, one host sync per step, no step annotations), found
# by `analyze` from `record --graphs node|whole|events` and a torch.profiler
# trace: the step count must equal the replay count, the step time must match the
# CUDA-event-timed step within 5%, and no gpu_idle / launch_bound finding may appear.
#   bench/gpu/graph_decode_check.sh BINDIR OUT [REPLAYS]
set -uo pipefail
BIN=$(cd "$1" && pwd) out=$2 replays=${3:-3000}
mkdir -p "$out"
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
here=$(cd "$(dirname "$0")" && pwd)
loop="python3 $here/graph_decode.py"
fails=0
check() {  # TAG TRUTH-JSON ANALYZE-JSON
  python3 - "$@" <<'PY' || fails=$((fails + 1))
import json, sys
tag, truth_path, analysis_path = sys.argv[1:4]
truth = json.loads(open(truth_path).read().strip().splitlines()[-1])
a = json.load(open(analysis_path))
steps = a["ranks"][0]["steps"]
ids = [f["id"] for f in a["findings"]]
ok_count = steps["count"] == truth["replays"]
ok_time = abs(steps["median_ms"] - truth["event_step_ms"]) <= 0.05 * truth["event_step_ms"]
ok_findings = "gpu_idle" not in ids and "launch_bound" not in ids
ok = ok_count and ok_time and ok_findings
print(f"{'PASS' if ok else 'FAIL'}  {tag}: steps {steps['count']} (want {truth['replays']}, source "
      f"{steps['source']!r}: {steps['marker']!r}, {steps.get('before_first_step')} activities before the first); "
      f"step time {steps['median_ms']:.3f} ms (CUDA events {truth['event_step_ms']:.3f} ms); "
      f"GPU busy {steps['gpu_median_ms']:.3f} ms (replay alone {truth['event_replay_ms']:.3f} ms); findings {ids}")
sys.exit(0 if ok else 1)
PY
}
for mode in node whole events; do
  "$BIN/cuprobe" record -f --no-counters --graphs $mode -o "$out/$mode.cuprobe" -- $loop --replays "$replays" \
    > "$out/$mode.truth.json" 2>> "$out/log.txt"
  "$BIN/cuprobe" analyze --json "$out/$mode.cuprobe" > "$out/$mode.analyze.json" 2>> "$out/log.txt"
  "$BIN/cuprobe" analyze "$out/$mode.cuprobe" > "$out/$mode.analyze.txt" 2>> "$out/log.txt"
  check "record --graphs $mode, $replays replays" "$out/$mode.truth.json" "$out/$mode.analyze.json"
done
# torch.profiler keeps every event in memory: fewer replays.
tp_replays=$((replays < 300 ? replays : 300))
$loop --replays "$tp_replays" --mode torch-profiler --trace "$out/torch.json" > "$out/torch.truth.json" 2>> "$out/log.txt"
"$BIN/cuprobe" analyze --json "$out/torch.json" > "$out/torch.analyze.json" 2>> "$out/log.txt"
"$BIN/cuprobe" analyze "$out/torch.json" > "$out/torch.analyze.txt" 2>> "$out/log.txt"
check "torch.profiler, $tp_replays replays" "$out/torch.truth.json" "$out/torch.analyze.json"
echo "failures: $fails"
exit $((fails > 0))
