#!/usr/bin/env bash
# `record --graphs events` against CUPTI's graph tracing on the same launches: one
# recording of the graph-replayed decode loop (bench/gpu/graph_decode.py) with both
# on (CUPROBE_RECORD_GRAPH_EVENTS_LOG makes the library write the event-timed
# launches to a file and keep CUPTI's graph tracing for the run file), then per
# launch: duration by events vs by CUPTI, and the gaps between launches by each.
# Goal (issue 17): median per-graph duration within 1% of CUPTI's. Also printed: the
# program's own CUDA events around each replay (graph_decode.py), which events here
# should match.
#   bench/gpu/graph_events_check.sh BINDIR OUT [REPLAYS]
set -uo pipefail
BIN=$(cd "$1" && pwd) out=$2 replays=${3:-2000}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
CUPROBE_RECORD_GRAPH_EVENTS_LOG="$out/events.csv" "$BIN/cuprobe" record -f --no-counters --graphs events \
  -o "$out/both.cuprobe" -- python3 "$here/graph_decode.py" --replays "$replays" > "$out/both.truth.json" 2> "$out/both.log"
python3 - "$out/both.cuprobe" "$out/events.csv" "$replays" "$out/both.truth.json" <<'PY'
import csv, json, sqlite3, statistics, sys
run, log, replays = sys.argv[1], sys.argv[2], int(sys.argv[3])
truth = json.loads(open(sys.argv[4]).read().strip().splitlines()[-1])
cupti = sqlite3.connect(run).execute(
    "SELECT correlation, start_ns, end_ns FROM graph_launches ORDER BY start_ns").fetchall()
events = sorted((int(c), int(s), int(e)) for c, s, e in csv.reader(open(log)))
events.sort(key=lambda r: r[1])
by_corr = {c: (s, e) for c, s, e in events}
pairs = [((s, e), by_corr[c]) for c, s, e in cupti if c in by_corr]
how = "by correlation id"
if len(pairs) < 0.9 * min(len(cupti), len(events)):
    pairs = [((a[1], a[2]), (b[1], b[2])) for a, b in zip(cupti, events)]
    how = "in launch order (correlation ids differ)"
rel = [((ev[1] - ev[0]) - (cu[1] - cu[0])) / (cu[1] - cu[0]) for cu, ev in pairs if cu[1] > cu[0]]
cu_d = statistics.median(cu[1] - cu[0] for cu, _ in pairs) / 1e3
ev_d = statistics.median(ev[1] - ev[0] for _, ev in pairs) / 1e3
offs = [ev[0] - cu[0] for cu, ev in pairs]
off0 = statistics.median(offs)
spread = statistics.median(abs(o - off0) for o in offs) / 1e3
diff = (ev_d - cu_d) / cu_d * 100
ok = len(pairs) >= replays and abs(diff) <= 1.0
print(f"{'PASS' if ok else 'FAIL'}  {len(cupti)} launches traced by CUPTI, {len(events)} timed by events, "
      f"{len(pairs)} paired {how}; median duration CUPTI {cu_d:.2f} us, events {ev_d:.2f} us ({diff:+.2f}%); "
      f"per launch |events/CUPTI - 1|: median {statistics.median(abs(r) for r in rel) * 100:.2f}%, "
      f"p99 {sorted(abs(r) for r in rel)[int(len(rel) * 0.99)] * 100:.2f}%; start offset events - CUPTI "
      f"median {off0 / 1e3:+.2f} us (clock placement; run file's clock vs CUPTI's), "
      f"median deviation from it {spread:.2f} us; the program's own CUDA events around each replay: median "
      f"{truth['event_replay_ms'] * 1e3:.2f} us (events here {(ev_d / (truth['event_replay_ms'] * 1e3) - 1) * 100:+.2f}%)")
sys.exit(0 if ok else 1)
PY
