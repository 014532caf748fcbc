#!/usr/bin/env python3
"""cuprobe analyze's speed in one run: this build vs an earlier cuprobe vs python3 json.load.

Usage: bench/analyze_speed.py [--cuprobe build/release/cuprobe] [--baseline OTHER_CUPROBE] [--runs 5]
                              [--readers] [--scaling] TRACE.json

1. The plain trace: this build, the baseline (another cuprobe binary, e.g. the previous main's) and
   python3 json.load + a per-kernel-name sum, run interleaved `runs` times; medians of wall and CPU
   time (user + system), the largest peak RSS, and the spread (min..max of wall) as the noise.
2. The same trace gzipped (made once beside it): this build, the baseline and `zcat` alone (the goal:
   cuprobe's wall at most 0.6x zcat's).
3. With --scaling: this build on the trace cut or repeated (whole events of its traceEvents array) to
   35 MiB .. 1.4 GiB, written beside it (in TMPDIR; never committed): size, wall, CPU, peak RSS.
With --readers, this build also runs with CUPROBE_KINETO_READER=simdjson (traceEvents read by simdjson
over bounded windows where built in; kineto_importer.h) beside its default reader, in both tables.
Each command runs in its own child process; peak RSS and CPU time come from getrusage.
"""
import argparse
import gzip
import os
import shutil
import subprocess
import sys

PYTHON_BASELINE = r"""
import collections, json, sys
trace = json.load(open(sys.argv[1]))
total = collections.Counter()
for e in trace["traceEvents"]:
    if e.get("cat") == "kernel":
        total[e["name"]] += e.get("dur", 0)
print(len(total))
"""

MIB = 1024 * 1024


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


def interleaved(sides, runs):
    """sides: [(label, cmd)]; returns {label: [(wall, rss, cpu)]}, each side run once per round."""
    results = {label: [] for label, _ in sides}
    for _ in range(runs):
        for label, cmd in sides:
            results[label].append(measure(cmd))
    return results


def print_table(title, results, reference=None):
    print(title)
    print(f"  {'':34}{'wall med':>9}{'min..max':>14}{'CPU med':>9}{'peak RSS':>10}")
    for label, rows in results.items():
        walls = [w for w, _, _ in rows]
        line = (f"  {label:34}{median(walls):>8.2f}s{min(walls):>7.2f}..{max(walls):<5.2f}"
                f"{median(c for _, _, c in rows):>8.2f}s{max(r for _, r, _ in rows) / MIB:>6.0f} MiB")
        if reference and label != reference:
            line += f"   {median(walls) / median(w for w, _, _ in results[reference]):.2f}x of {reference}'s wall"
        print(line)


def split_trace(path):
    """(head up to and including traceEvents' '[', the events text, the rest from the closing ']')."""
    with open(path, "rb") as f:
        data = f.read()
    key = data.index(b'"traceEvents"')
    open_at = data.index(b"[", key) + 1
    close_at = data.rindex(b"]", 0, data.rindex(b'"traceName"') if b'"traceName"' in data[-4096:] else len(data))
    return data[:open_at], data[open_at:close_at].rstrip(), data[close_at:]


def whole_events(events, start, length):
    """The events text from the first event starting at or after `start`, cut after a whole event near `length`."""
    sep = b"\n  },"  # an event's closing brace (Kineto indents nested objects deeper)
    if start > 0:
        start = events.find(sep, start) + len(sep)
    end = events.rfind(sep, start, start + length)
    return events[start:end + len(sep) - 1].lstrip(b", \n") if end > start else b""


def scaled_trace(path, target, out):
    """Writes the trace with its events cut or repeated to about `target` bytes. A cut takes ten
    windows spread over the array (Kineto writes CPU events before GPU ones: a prefix has no kernels)."""
    if os.path.exists(out) and abs(os.path.getsize(out) - target) < target // 10:
        return out
    head, events, tail = split_trace(path)
    room = target - len(head) - len(tail)
    pieces = []
    if room < len(events):
        for i in range(10):
            pieces.append(whole_events(events, i * len(events) // 10, room // 10))
    else:
        pieces = [events] * (room // len(events))
        pieces.append(whole_events(events, 0, room - (len(events) + 1) * len(pieces)))
    with open(out, "wb") as f:
        f.write(head)
        f.write(b",".join(p for p in pieces if p))
        f.write(b"\n  ")
        f.write(tail)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--cuprobe", default=os.path.join(os.path.dirname(__file__), "..", "build", "release", "cuprobe"))
    parser.add_argument("--baseline", help="an earlier cuprobe binary to compare with, run interleaved")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--readers", action="store_true", help="also this build with the simdjson reader")
    parser.add_argument("--scaling", action="store_true", help="also time 35 MiB .. 1.4 GiB cuts of the trace")
    args = parser.parse_args()

    size = os.path.getsize(args.trace)
    print(f"trace: {args.trace} ({size / MIB:.0f} MiB), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the start; {args.runs} interleaved runs per side")
    simd = ["env", "CUPROBE_KINETO_READER=simdjson", args.cuprobe]
    sides = [("cuprobe analyze (this build)", [args.cuprobe, "analyze", args.trace])]
    if args.readers:
        sides.append(("this build, simdjson reader", [*simd, "analyze", args.trace]))
    if args.baseline:
        sides.append(("cuprobe analyze (baseline)", [args.baseline, "analyze", args.trace]))
    sides.append(("python3 json.load + kernel sum", [sys.executable, "-c", PYTHON_BASELINE, args.trace]))
    plain = interleaved(sides, args.runs)
    print_table("plain JSON:", plain, reference="cuprobe analyze (this build)")

    gz = args.trace + ".gz"
    if not os.path.exists(gz):
        with open(args.trace, "rb") as src, gzip.open(gz, "wb", compresslevel=6) as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    sides = [("cuprobe analyze .gz (this build)", [args.cuprobe, "analyze", gz])]
    if args.readers:
        sides.append((".gz, this build, simdjson reader", [*simd, "analyze", gz]))
    if args.baseline:
        sides.append(("cuprobe analyze .gz (baseline)", [args.baseline, "analyze", gz]))
    sides.append(("zcat alone", ["zcat", gz]))
    print_table(f"gzipped ({os.path.getsize(gz) / MIB:.0f} MiB):", interleaved(sides, args.runs), reference="zcat alone")

    if args.scaling:
        print("scaling (this build; events cut or repeated; medians of 3):")
        print(f"  {'size':>9}{'wall':>8}{'CPU':>8}{'peak RSS':>10}{'GB/s':>7}")
        base = os.path.splitext(args.trace)[0]
        for target_mib in (35, 87, 173, 346, 692, 1434):
            path = args.trace if target_mib == 346 else scaled_trace(args.trace, target_mib * MIB, f"{base}.{target_mib}mib.json")
            rows = [measure([args.cuprobe, "analyze", path]) for _ in range(3)]
            wall = median(w for w, _, _ in rows)
            print(f"  {os.path.getsize(path) / MIB:>5.0f} MiB{wall:>7.2f}s{median(c for _, _, c in rows):>7.2f}s"
                  f"{max(r for _, r, _ in rows) / MIB:>6.0f} MiB{os.path.getsize(path) / wall / 1e9:>7.2f}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
