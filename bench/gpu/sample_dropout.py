#!/usr/bin/env python3
"""Counts dropout samples in a `cuprobe sample` CSV of a steady GEMM load.

usage: sample_dropout.py NAME INTERVAL FILE.csv
Steady = 1.5 s after the first sample to 0.5 s before the last. A dropout is a
steady sample whose tensor-pipe value is under a tenth of the steady median while
the SM-active value stays above half of its median. Prints one JSON line."""
import csv, json, statistics, sys

name, interval, path = sys.argv[1:4]
rows = list(csv.DictReader(open(path)))
cols = rows[0].keys() if rows else []
tensor = next((c for c in cols if c in ("tensor_active_pct",) or "pipe_tensor_cycles_active_realtime" in c), None)
sm = next((c for c in cols if c in ("sm_active_pct",) or c.startswith("sm__cycles_active")), None)
out = {"set": name, "interval": interval, "samples": len(rows)}
if rows and tensor and sm:
    t0, t1 = int(rows[0]["start_ns"]) + 1_500_000_000, int(rows[-1]["end_ns"]) - 500_000_000
    steady = [r for r in rows if int(r["start_ns"]) >= t0 and int(r["end_ns"]) <= t1 and r[tensor] and r[sm]]
    tv = [float(r[tensor]) for r in steady]
    sv = [float(r[sm]) for r in steady]
    if tv:
        tm, smm = statistics.median(tv), statistics.median(sv)
        drops = sum(1 for t, s in zip(tv, sv) if t < 0.1 * tm and s > 0.5 * smm)
        sm_drops = sum(1 for s in sv if s < 0.1 * smm)
        out.update(steady=len(tv), tensor_median=round(tm, 2), tensor_mean=round(statistics.fmean(tv), 2),
                   dropouts=drops, dropout_pct=round(100 * drops / len(tv), 1), sm_dropouts=sm_drops)
print(json.dumps(out))
