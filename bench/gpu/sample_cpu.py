#!/usr/bin/env python3
"""CPU and memory of `cuprobe sample --interval 1ms` over a long run.

usage: sample_cpu.py CUPROBE SAMPLE_LOADS SECONDS OUTFILE [INTERVAL [SAMPLE OPTIONS...]]
Samples GPU 0 and runs a bf16 GEMM load on it meanwhile (SAMPLE_LOADS "none": no load); samples
cuprobe's RSS every 10 s from /proc; CPU time comes from wait4() (user + system)
over the wall time. The last line is one JSON object with the figures.
"""
import json
import re
import os
import subprocess
import sys
import time

cuprobe, loads, secs, outfile = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
interval = sys.argv[5] if len(sys.argv) > 5 else "1ms"
extra = sys.argv[6:]
load = None
if loads != "none":
    load = subprocess.Popen([loads, "gemm", str(secs + 10)], stdout=subprocess.DEVNULL)
    time.sleep(3)
t0 = time.monotonic()
p = subprocess.Popen([cuprobe, "sample", "--gpu", "0", "--interval", interval, "--duration", f"{secs}s", "-o", outfile,
                      "--summary-json", outfile + ".summary.json"] + extra, stderr=subprocess.PIPE)
rss = []
ticks = []  # (seconds since start, user+system clock ticks): the steady rate leaves start-up out
hz = os.sysconf("SC_CLK_TCK")
ru = None
while ru is None:
    try:
        with open(f"/proc/{p.pid}/status") as f:
            kb = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
        rss.append((round(time.monotonic() - t0, 1), kb))
    except (FileNotFoundError, StopIteration, ProcessLookupError):
        pass
    for _ in range(min(100, max(1, int(secs * 10) // 4))):
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            ru = usage
            break
        try:
            with open(f"/proc/{p.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks.append((time.monotonic() - t0, int(fields[11]) + int(fields[12])))
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
        time.sleep(0.1)
wall = time.monotonic() - t0
err = p.stderr.read().decode()
if load:
    load.wait()
cpu = ru.ru_utime + ru.ru_stime
maxrss = ru.ru_maxrss
note = f"(exit status {status >> 8})"
lines = sum(1 for _ in open(outfile)) - 1
print(f"cuprobe sample --interval {interval} for {secs:.0f} s: wall {wall:.1f} s, CPU {cpu:.2f} s = "
      f"{100 * cpu / wall:.2f}% of one core {note}")
print(f"samples written: {lines} ({lines / wall:.0f}/s)")
print("RSS every 10 s (s, KiB): " + " ".join(f"{t}:{kb}" for t, kb in rss))
if rss:
    print(f"RSS first {rss[0][1]} KiB, last {rss[-1][1]} KiB, max {max(k for _, k in rss)} KiB; ru_maxrss {maxrss} KiB")
print("\n".join(err.strip().splitlines()[-3:]))
steady = [(t, c) for t, c in ticks if t >= min(5.0, secs / 2)]
steady_pct = (100 * (steady[-1][1] - steady[0][1]) / hz / (steady[-1][0] - steady[0][0])
              if len(steady) > 1 and steady[-1][0] > steady[0][0] else None)
print(f"steady CPU (from {steady[0][0]:.1f} s to {steady[-1][0]:.1f} s): {steady_pct:.2f}% of one core" if steady_pct is not None else "steady CPU: n/a")
lost_match = re.search(r"lost samples \(.*?\): (\d+)", err)
print(json.dumps({"lost": int(lost_match.group(1)) if lost_match else None, "interval": interval, "steady_cpu_pct": None if steady_pct is None else round(steady_pct, 2), "options": " ".join(extra), "seconds": secs, "wall_s": round(wall, 2),
                  "cpu_pct": round(100 * cpu / wall, 2), "samples": lines, "exit": status >> 8,
                  "rss_first_kib": rss[0][1] if rss else None, "rss_last_kib": rss[-1][1] if rss else None,
                  "env": {k: v for k, v in os.environ.items() if k.startswith("CUPROBE_PM_")},
                  "profile": next((l for l in err.splitlines() if "decode profile" in l), "")}))
