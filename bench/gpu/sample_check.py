#!/usr/bin/env python3
"""Checks `cuprobe sample` CSV output of a known load against expectations.

usage: sample_check.py LOAD FILE.csv LAUNCH_REALTIME_NS
Steady state = samples from 1.5 s after the first sample to 0.5 s before the last
(allocation, cuBLAS start-up and teardown are left out). Prints one JSON line.
"""
import csv
import json
import statistics
import sys

EXPECT = {
    # metric: (predicate text, function)
    "idle": [("tensor_active_pct", "< 1", lambda v: v < 1), ("sm_active_pct", "< 1", lambda v: v < 1),
             ("dram_pct", "< 1", lambda v: v < 1)],
    "gemm": [("tensor_active_pct", ">= 80", lambda v: v >= 80)],
    "copy": [("tensor_active_pct", "< 1", lambda v: v < 1), ("dram_pct", ">= 70", lambda v: v >= 70)],
    "cast": [],
}


def main():
    load, path, launch_ns = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(json.dumps({"load": load, "verdict": "FAIL", "why": "no samples"}))
        return 1
    starts = [int(r["start_ns"]) for r in rows]
    ends = [int(r["end_ns"]) for r in rows]
    t0, t1 = starts[0] + 1_500_000_000, ends[-1] - 500_000_000
    steady = [r for r in rows if int(r["start_ns"]) >= t0 and int(r["end_ns"]) <= t1]
    if load == "idle":
        steady = rows
    metrics = [k for k in rows[0].keys() if k not in ("gpu", "start_ns", "end_ns")]
    means = {}
    for m in metrics:
        vals = [float(r[m]) for r in steady if r[m] != ""]
        means[m] = round(statistics.fmean(vals), 3) if vals else None
    missing = sum(1 for r in rows for m in metrics if r[m] == "")
    widths = [e - s for s, e in zip(starts, ends)]
    gaps = [starts[i + 1] - ends[i] for i in range(len(rows) - 1)]
    # Samples where an SM-side counter collapses while the load runs (seen with some metric
    # sets): sm_active below a tenth of its steady median.
    suspect = None
    if "sm_active_pct" in metrics and load != "idle":
        sm = [float(r["sm_active_pct"]) for r in steady if r["sm_active_pct"] != ""]
        if sm and statistics.median(sm) > 50:
            med = statistics.median(sm)
            suspect = sum(1 for v in sm if v < med / 10)
    checks = []
    ok = True
    for metric, text, fn in EXPECT.get(load, []):
        v = means.get(metric)
        passed = v is not None and fn(v)
        ok = ok and passed
        checks.append({"metric": metric, "expect": text, "value": v, "pass": passed})
    out = {
        "load": load,
        "samples": len(rows),
        "steady_samples": len(steady),
        "empty_values": missing,
        "sample_width_ms_median": round(statistics.median(widths) / 1e6, 3),
        "gap_ms_median": round(statistics.median(gaps) / 1e6, 3) if gaps else None,
        "gap_ms_max": round(max(gaps) / 1e6, 3) if gaps else None,
        "first_sample_minus_launch_ms": round((starts[0] - launch_ns) / 1e6, 1),
        "suspect_samples": suspect,
        "steady_means": means,
        "checks": checks,
        "verdict": "PASS" if ok else "FAIL",
    }
    print(json.dumps(out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
