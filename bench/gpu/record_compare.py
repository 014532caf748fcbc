#!/usr/bin/env python3
"""Per-kernel total time: a cuprobe run file (kernels inside the NVTX range
'measure') against a torch.profiler chrome trace of the same workload.
Prints a table and the largest relative difference among the kernels that
hold at least 1% of the time. Usage: record_compare.py RUN.cuprobe TRACE.json"""
import collections, json, sqlite3, sys

run, trace = sys.argv[1], sys.argv[2]
db = sqlite3.connect(run)
(m0, m1) = db.execute("SELECT start_ns, end_ns FROM ranges r JOIN names n ON n.id = r.name_id "
                      "WHERE n.name = 'measure' ORDER BY start_ns DESC LIMIT 1").fetchone()
cp = collections.defaultdict(lambda: [0, 0])
for name, d in db.execute("SELECT n.name, k.end_ns - k.start_ns FROM kernels k JOIN names n ON n.id = k.name_id "
                          "WHERE k.start_ns >= ? AND k.start_ns < ?", (m0, m1)):
    cp[name][0] += 1
    cp[name][1] += d
tp = collections.defaultdict(lambda: [0, 0.0])
for e in json.load(open(trace))["traceEvents"]:
    if e.get("cat") == "kernel" and e.get("ph") == "X":
        tp[e["name"]][0] += 1
        tp[e["name"]][1] += float(e["dur"]) * 1000.0
total_cp = sum(v[1] for v in cp.values())
total_tp = sum(v[1] for v in tp.values())
rows = []
for name in set(cp) | set(tp):
    c, t = cp.get(name, [0, 0]), tp.get(name, [0, 0.0])
    share = max(c[1] / total_cp if total_cp else 0, t[1] / total_tp if total_tp else 0)
    diff = (c[1] - t[1]) / t[1] * 100 if t[1] else float("inf")
    rows.append((share, name, c[0], t[0], c[1] / 1e6, t[1] / 1e6, diff))
rows.sort(reverse=True)
print(f"{'kernel':60s} {'n cuprobe':>9s} {'n torch':>8s} {'ms cuprobe':>10s} {'ms torch':>9s} {'diff %':>7s}")
for share, name, nc, nt, mc, mt, diff in rows[:12]:
    print(f"{name[:60]:60s} {nc:9d} {nt:8d} {mc:10.3f} {mt:9.3f} {diff:7.2f}")
big = [r for r in rows if r[0] >= 0.01]
worst = max((abs(r[6]) for r in big), default=float("nan"))
print(f"TOTAL kernels cuprobe {sum(v[0] for v in cp.values())} torch {sum(v[0] for v in tp.values())}; "
      f"time cuprobe {total_cp/1e6:.3f} ms torch {total_tp/1e6:.3f} ms "
      f"({(total_cp-total_tp)/total_tp*100:+.2f}%); worst per-kernel diff (>=1% share, {len(big)} kernels): {worst:.2f}%")
