#!/usr/bin/env python3
"""cuprobe analyze over many ranks in one run: peak memory and wall time against the ranks read (issue 37).

Usage: bench/ranks_scale.py [--cuprobe build/release/cuprobe] [--ranks 1,8,16,32,64] [--base TRACE]
                            [--keep DIR]

Builds rank sets of each size with tests/data/make_rank_set.py in a temporary directory (removed
after; --keep DIR writes them there instead and leaves them), all from one base trace:
tests/data/dsv3_mla_moe_bs4_decode.json.gz by default, an MoE decode of 10.7k GPU activities and
79k events (1.6 MB gzipped, ~6 MB of Profile), with an all-reduce inserted after every 40th kernel
(--insert-collectives-every 40). It is the bundled trace whose one rank costs the most to read, so a
Profile kept per rank would show (the tp2 pair's ranks are ~170 KB of Profile each, small beside the
~10 MiB of buffers and working set any rank costs), and it is the trace docs/analyze-ranks.md
measured before.

Each set is analysed three ways, each run in its own child process (wall from the parent, peak RSS
and CPU time (user + system) from that child's own rusage, os.wait4):
  text:      cuprobe analyze DIR                           (the default report)
  json:      cuprobe analyze --json --summary S.json DIR   (what docs/analyze-ranks.md measured first)
  summaries: cuprobe analyze --json S.json                 (the cross-rank part alone, from the summary)
and one table is printed: ranks, input MiB, wall s, CPU s, peak RSS MiB, wall per rank; then, for text
and json, peak(N)/peak(1), what each rank added between the two largest sets, and wall(N)/(N * wall(1))
and CPU(N)/(N * CPU(1)) for the largest N, with a verdict.

analyze reads one file per CPU it may run on at a time and releases each rank's Profile once it is
analysed, so the peak is the ranks read at once plus what is kept per rank (the per-rank report and
summary; --json writes its document rank by rank, so it holds one rank's part at a time). "One rank's own
cost" is peak(1) less `cuprobe --version`'s (the process with nothing read). The verdict says
"bounded" when each rank added between the two largest sets costs less than a quarter of one
rank's own cost (a kept Profile, ~6 MiB here, would cost ~0.4 of it plus what is kept), and "linear" when CPU per rank at the
largest N is within 1.5x of one rank's (wall per rank falls below it where files are read in
parallel).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MIB = 1024 * 1024


def run_measured(cmd):
    """Runs cmd as a child; returns (wall s, CPU s, peak RSS bytes) from its own rusage.

    A plain fork, not subprocess's vfork: Linux carries the high-water mark of the image a process
    replaces over exec, and a vforked child's is this python's own peak (~14 MiB, more than cuprobe's
    idle peak). A forked child's starts at the pages the fork copied: floor() below."""
    err = tempfile.TemporaryFile()
    t = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            os.dup2(err.fileno(), 2)
            os.execv(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        err.seek(0)
        sys.exit(f"{' '.join(cmd)} failed ({os.waitstatus_to_exitcode(status)}): {err.read().decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def floor():
    """The peak RSS a forked child starts at (one that exits at once): figures at or below it are not cuprobe's."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return os.wait4(pid, 0)[2].ru_maxrss * 1024


def make_set(base, ranks, out):
    files = [os.path.join(out, f"rank{r}.json.gz") for r in range(ranks)]
    if not all(os.path.exists(f) for f in files):  # --keep: a set made before is used again
        straggler = ["--straggler", str(ranks - 1), "--delay-us", "150"] if ranks > 1 else []
        subprocess.run([sys.executable, os.path.join(ROOT, "tests/data/make_rank_set.py"), "--base", base,
                        "--insert-collectives-every", "40", "--ranks", str(ranks), *straggler,
                        "--offset-spread-us", "2500", "--out", out], check=True)
        os.remove(os.path.join(out, "truth.json"))
    return sum(os.path.getsize(f) for f in files)


def verdict(label, by_n, idle):
    sizes = sorted(by_n)
    top, prev = sizes[-1], sizes[-2]
    _, wall1, cpu1, peak1 = by_n[1]
    _, wall, cpu, peak = by_n[top]
    one_rank = peak1 - idle
    added = (peak - by_n[prev][3]) / (top - prev)
    print(f"{label}: peak({top})/peak(1) = {peak / peak1:.2f}; one rank's own cost {one_rank / MIB:.1f} MiB"
          f" (peak(1) less --version's {idle / MIB:.1f} MiB); each rank from {prev} to {top} added"
          f" {added / MIB:.2f} MiB ({added / one_rank:.2f} of one rank's cost)")
    print(f"{label}: wall({top})/({top} * wall(1)) = {wall / (top * wall1):.2f},"
          f" CPU({top})/({top} * CPU(1)) = {cpu / (top * cpu1):.2f}")
    bounded = added < one_rank / 4
    linear = cpu / (top * cpu1) < 1.5 and wall / (top * wall1) < 1.5
    grows = f"still grows {added / MIB:.2f} MiB a rank (what is kept per rank)" if bounded else "GROWS WITH THE RANKS"
    print(f"verdict ({label}): memory {'bounded' if bounded else 'NOT BOUNDED'}, {grows}: {top} ranks peak at"
          f" {(peak - idle) / one_rank:.1f} one-rank costs above the idle process, not {top};"
          f" time {'linear' if linear else 'NOT LINEAR'} in the ranks read")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuprobe", default=os.path.join(ROOT, "build/release/cuprobe"))
    ap.add_argument("--ranks", default="1,8,16,32,64")
    ap.add_argument("--base", default=os.path.join(ROOT, "tests/data/dsv3_mla_moe_bs4_decode.json.gz"))
    ap.add_argument("--keep", help="build the rank sets in DIR and leave them (sets already there are used)")
    a = ap.parse_args()
    sizes = sorted({int(n) for n in a.ranks.split(",")} | {1})  # the ratios are against one rank
    if len(sizes) < 2:
        sys.exit("--ranks: give a size above 1")
    work = a.keep or tempfile.mkdtemp(prefix="cuprobe_ranks_scale_")
    rows = {"text": {}, "json": {}, "summaries": {}}
    try:
        for n in sizes:
            d = os.path.join(work, f"ranks{n}")
            size = make_set(a.base, n, d)
            s = os.path.join(work, f"summary{n}.json")
            rows["text"][n] = (size,) + run_measured([a.cuprobe, "analyze", d])
            rows["json"][n] = (size,) + run_measured([a.cuprobe, "analyze", "--json", "--summary", s, d])
            rows["summaries"][n] = (os.path.getsize(s),) + run_measured([a.cuprobe, "analyze", "--json", s])
        idle = run_measured([a.cuprobe, "--version"])[2]
        least = floor()
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)

    print(f"cuprobe analyze over rank sets of {os.path.basename(a.base)} (make_rank_set.py"
          f" --insert-collectives-every 40); {len(os.sched_getaffinity(0))} CPUs,"
          f" load average {os.getloadavg()[0]:.2f} at the end; cuprobe --version peaks at {idle / MIB:.1f} MiB,"
          f" a forked child at {least / MIB:.1f} MiB at least")
    print(f"  {'run':10}{'ranks':>6}{'input MiB':>11}{'wall s':>9}{'CPU s':>8}{'peak RSS MiB':>14}"
          f"{'wall/rank s':>13}")
    for kind, by_n in rows.items():
        for n, (size, wall, cpu, rss) in by_n.items():
            print(f"  {kind:10}{n:>6}{size / MIB:>11.1f}{wall:>9.2f}{cpu:>8.2f}{rss / MIB:>14.1f}{wall / n:>13.3f}")
    verdict("text", rows["text"], idle)
    verdict("json", rows["json"], idle)


if __name__ == "__main__":
    main()
