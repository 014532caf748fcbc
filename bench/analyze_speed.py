#!/usr/bin/env python3
"""cuprobe analyze vs python3 json.load + a per-kernel-name sum, on one trace.

Usage: bench/analyze_speed.py [--cuprobe build/release/cuprobe] [--baseline OTHER_CUPROBE] [--runs 3] TRACE.json
Prints both wall times, their ratio, and peak memory against the file's size.
With --baseline, another cuprobe binary (an earlier commit's) is timed in the
same run, interleaved with this one, and the change is printed beside it, in
wall time and in CPU time (user + system: less disturbed by other work on a
shared machine than the wall time is).
Each command runs in its own child process; its peak RSS and CPU time come from getrusage.
"""
import argparse
import os
import resource
import subprocess
import sys
import time

PYTHON_BASELINE = r"""
import collections, json, sys
trace = json.load(open(sys.argv[1]))
total = collections.Counter()
for e in trace["traceEvents"]:
    if e.get("cat") == "kernel":
        total[e["name"]] += e.get("dur", 0)
print(len(total))
"""


def measure(cmd):
    """Runs cmd in a fresh measuring process; returns (seconds, peak RSS bytes, CPU seconds)."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "t = time.perf_counter() - t\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(t, u.ru_maxrss * 1024, u.ru_utime + u.ru_stime)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe, *cmd], check=True, capture_output=True, text=True).stdout
    seconds, rss, cpu = out.split()
    return float(seconds), int(rss), float(cpu)


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--cuprobe", default=os.path.join(os.path.dirname(__file__), "..", "build", "release", "cuprobe"))
    parser.add_argument("--baseline", help="an earlier cuprobe binary to compare with, run interleaved")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    size = os.path.getsize(args.trace)
    cuprobe, baseline = [], []
    for _ in range(args.runs):
        cuprobe.append(measure([args.cuprobe, "analyze", args.trace]))
        if args.baseline:
            baseline.append(measure([args.baseline, "analyze", args.trace]))
    python = [measure([sys.executable, "-c", PYTHON_BASELINE, args.trace]) for _ in range(max(1, args.runs // 2))]
    c_time = median(t for t, _, _ in cuprobe)
    p_time = median(t for t, _, _ in python)
    c_rss = max(r for _, r, _ in cuprobe)
    p_rss = max(r for _, r, _ in python)
    mib = 1024 * 1024
    print(f"trace: {args.trace} ({size / mib:.0f} MiB), {os.cpu_count()} cores")
    print(f"{'':34}{'wall (median)':>14}{'peak RSS':>12}")
    print(f"{'python3 json.load + kernel sum':34}{p_time:>12.2f} s{p_rss / mib:>8.0f} MiB")
    print(f"{'cuprobe analyze':34}{c_time:>12.2f} s{c_rss / mib:>8.0f} MiB")
    if baseline:
        b_time = median(t for t, _, _ in baseline)
        b_rss = max(r for _, r, _ in baseline)
        c_cpu = median(c for _, _, c in cuprobe)
        b_cpu = median(c for _, _, c in baseline)
        print(f"{'cuprobe analyze (baseline)':34}{b_time:>12.2f} s{b_rss / mib:>8.0f} MiB")
        print(f"against the baseline: wall {100 * (c_time / b_time - 1):+.1f}%, peak RSS {100 * (c_rss / b_rss - 1):+.1f}%"
              f" (runs: {', '.join(f'{t:.2f}' for t, _, _ in cuprobe)} vs {', '.join(f'{t:.2f}' for t, _, _ in baseline)})")
        print(f"CPU time (user + system, median): {c_cpu:.2f} s vs {b_cpu:.2f} s, {100 * (c_cpu / b_cpu - 1):+.1f}%"
              f" (load average {os.getloadavg()[0]:.1f})")
    ratio = p_time / c_time
    print(f"speed-up: {ratio:.1f}x (target >= 20x); cuprobe peak memory {100 * c_rss / size:.0f}% of the file (target < 100%)")
    return 0 if ratio >= 20 and c_rss < size else 1


if __name__ == "__main__":
    sys.exit(main())
