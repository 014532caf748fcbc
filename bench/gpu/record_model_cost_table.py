#!/usr/bin/env python3
"""The table of bench/gpu/record_model_cost.sh: per variant, the per-process medians of
bench/gpu/model_cost.py (eager time per token, graph step, replay span, launch call), their
median over processes and spread (min-max), the cost against the unrecorded row, and that
cost per kernel launched eagerly and per graph node, counted in a `record --graphs node`
run file (kernels inside each phase's window).
usage: record_model_cost_table.py RUNS.jsonl VARIANTS [NODE_RUN_FILE]"""
import json, os, sqlite3, statistics, sys

rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
order = [l.split("|")[0].strip() for l in sys.argv[2].splitlines() if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["tag"], []).append(r)


def counts(path):
    """Kernels per eager forward and per graph replay, from a node-mode run file."""
    if not path or not os.path.exists(path) or "node" not in by:
        return None, None
    run = by["node"][-1]
    db = sqlite3.connect(path)
    w0, w1 = run["eager_window_ns"]
    eager = db.execute("SELECT count(*) FROM kernels WHERE start_ns BETWEEN ? AND ? AND (graph_id IS NULL OR graph_id = 0)",
                       (w0, w1)).fetchone()[0]
    if "graph_window_ns" not in run:
        return eager / run["eager_tokens"], None
    g0, g1 = run["graph_window_ns"]
    nodes = db.execute("SELECT count(*) FROM kernels WHERE start_ns BETWEEN ? AND ? AND graph_id > 0",
                       (g0, g1)).fetchone()[0]
    return eager / run["eager_tokens"], nodes / run["replays"]


per_token, per_replay = counts(sys.argv[3] if len(sys.argv) > 3 else "")
if per_token:
    print(f"kernels: {per_token:.0f} per eager token ({by['node'][-1].get('eager_kind', 'generate')}), {per_replay:.0f} nodes per graph replay "
          f"(node-mode run file, inside each phase's window)")
first = rows[0] if rows else {}
print(f"graph: {first.get('graph_kind', '?')}; processes: import {first.get('import_s')} s, "
      f"total {first.get('total_s')} s")


def med(tag, key):
    v = [r[key] for r in by.get(tag, []) if r.get(key) is not None]
    return (statistics.median(v), min(v), max(v), len(v)) if v else None


base = {k: med("plain", k) for k in ("eager_token_ms", "graph_step_ms")}
print(f"{'variant':20s} {'n':>2s} | {'eager ms/token':>14s} {'spread':>13s} {'cost':>7s} {'us/kernel':>9s} | "
      f"{'graph step ms':>13s} {'spread':>13s} {'cost':>7s} {'us/node':>7s} | {'replay ms':>9s} {'launch us':>9s}")
for tag in order:
    e, g = med(tag, "eager_token_ms"), med(tag, "graph_step_ms")
    if not e:
        continue
    cells = []
    for m, b, per in ((e, base["eager_token_ms"], per_token), (g, base["graph_step_ms"], per_replay)):
        if not m:
            cells.append(f"{'-':>14s} {'':13s} {'':7s} {'':9s}")
            continue
        cost = (m[0] / b[0] - 1) * 100 if b else float("nan")
        unit = (m[0] - b[0]) * 1e3 / per if b and per else float("nan")
        cells.append(f"{m[0]:14.4f} {m[1]:6.3f}-{m[2]:6.3f} {cost:+6.1f}% {unit:9.3f}")
    rep, lau = med(tag, "graph_replay_ms"), med(tag, "graph_launch_us")
    tail = f"{rep[0]:9.4f} {lau[0]:9.1f}" if rep and lau else ""
    print(f"{tag:20s} {e[3]:2d} | {cells[0]} | {cells[1]} | {tail}")
fastest = {tag: med(tag, "eager_token_ms")[1] for tag in order if med(tag, "eager_token_ms")}
if "plain" in fastest:
    print("eager, fastest process vs fastest process: " + ", ".join(
        f"{tag} {v:.3f} ms ({(v / fastest['plain'] - 1) * 100:+.1f}%)" for tag, v in fastest.items()))
