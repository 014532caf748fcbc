"""The harness every zoo program runs through (bench/gpu/zoo/README.md).

A program defines `build(variant) -> step` (a callable doing one decode step: the
thing the program repeats) and calls `main(build, variants)`. The harness owns the
loop, so the same step runs in every mode:

  --mode truth  no profiler: warm-up, then CUDA events at the start of every step
                (the harness synchronizes after each step, as a decode loop that
                reads its token back does); step i = start[i] -> start[i+1]. Prints
                one JSON line (median step ms, all steps) and appends it to --out.
  --mode trace  warm-up, then three torch.profiler sessions of --trace-steps steps,
                one after another in this process, each step followed by
                prof.step() under schedule(wait=0, warmup=1, active=N) (so the trace
                has ProfilerStep#1..N, as users get it):
                record_shapes=True -> shapes.json, no shapes -> noshapes.json,
                with_stack=True + record_shapes=True -> stack.json (in --out, a folder).
  --mode plain  2 warm-up steps + --steps (12) steps, a synchronize after each, no
                annotations and no read-back: what `cuprobe record` wraps (kept short so
                the run file stays small).

Serialising the GPU phases: with ZOO_LOCK=path set, the process takes an exclusive
fcntl.flock on that file after `import torch` and before its first CUDA call, and
holds it until it exits. Many processes can import torch at once while only one
touches the GPU; the others sleep in flock (idle), so host-bound programs measure
on a quiet machine.
"""
import argparse
import fcntl
import gzip
import json
import os
import shutil
import statistics
import sys
import time

import torch

_lock_fd = None


def _take_lock():
    """ZOO_READY_DIR: say this process has imported torch (the driver holds the lock until
    every process of the phase has). ZOO_DEADLINE (epoch s): give up, exit 3, if the lock
    comes later than that."""
    global _lock_fd
    path = os.environ.get("ZOO_LOCK")
    if not path:
        return 0.0
    ready = os.environ.get("ZOO_READY_DIR")
    if ready:
        open(os.path.join(ready, str(os.getpid())), "w").close()
    t = time.perf_counter()
    _lock_fd = open(path, "a+")
    fcntl.flock(_lock_fd.fileno(), fcntl.LOCK_EX)  # released when the process exits
    if time.time() > float(os.environ.get("ZOO_DEADLINE", "inf")):
        print("deadline passed before this process got the GPU: skipped", file=sys.stderr)
        sys.exit(3)
    return time.perf_counter() - t


def _steps_for(seconds, step_s, lo, hi):
    return int(max(lo, min(hi, seconds / max(step_s, 1e-6))))


def _warm(step, quick):
    """Warm-up: at least 5 steps (2 if quick) and ZOO_WARM_S (0.2 s). Returns the last step time (s)."""
    n_min, t_min = (2, 0.0) if quick else (5, float(os.environ.get("ZOO_WARM_S", "0.2")))
    t0 = time.perf_counter()
    n, last = 0, 0.0
    while n < n_min or time.perf_counter() - t0 < t_min:
        t = time.perf_counter()
        step()
        torch.cuda.synchronize()
        last = time.perf_counter() - t
        n += 1
        if n >= 200:
            break
    return last, n


def _gzip(path):
    with open(path, "rb") as src, gzip.open(path + ".gz", "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path)


def main(build, variants=("bug", "fixed"), max_steps=None, doc=""):
    p = argparse.ArgumentParser(description=doc)
    p.add_argument("--variant", required=True, choices=list(variants))
    p.add_argument("--mode", required=True, choices=["truth", "trace", "plain"])
    p.add_argument("--out", default="", help="truth: JSON-lines file to append to; trace: folder")
    p.add_argument("--steps", type=int, default=0, help="plain: steps after warm-up (default 12); "
                   "truth: steps timed (default: about ZOO_TRUTH_S=0.5 s, 30..300)")
    p.add_argument("--trace-steps", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="smoke test: tiny step counts")
    a = p.parse_args()
    quick = a.quick or os.environ.get("ZOO_QUICK") == "1"
    prog = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    waited = _take_lock()
    t_gpu = time.perf_counter()
    torch.manual_seed(0)
    step = build(a.variant)
    warm_s, warm_n = _warm(step, quick or a.mode == "plain")  # plain: 2 warm-up steps, as recorded
    info = {"program": prog, "variant": a.variant, "mode": a.mode, "pid": os.getpid(),
            "lock_wait_s": round(waited, 2), "warmup_steps": warm_n}
    extra = getattr(step, "info", None)
    if extra:
        info.update(extra() if callable(extra) else extra)

    if a.mode == "truth":
        n = a.steps or (3 if quick else _steps_for(float(os.environ.get("ZOO_TRUTH_S", "0.5")), warm_s, 30, 300))
        if max_steps:
            n = min(n, max_steps)
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(n + 1)]
        t0 = time.perf_counter()
        for i in range(n):
            ev[i].record()
            step()
            torch.cuda.synchronize()
        ev[n].record()
        torch.cuda.synchronize()
        wall = (time.perf_counter() - t0) * 1e3 / n
        ms = [ev[i].elapsed_time(ev[i + 1]) for i in range(n)]
        info.update({"steps": n, "median_ms": round(statistics.median(ms), 4),
                     "mean_ms": round(statistics.fmean(ms), 4), "min_ms": round(min(ms), 4),
                     "max_ms": round(max(ms), 4), "wall_mean_ms": round(wall, 4),
                     "step_ms": [round(x, 4) for x in ms]})
    elif a.mode == "trace":
        from torch.profiler import ProfilerActivity, profile, schedule
        os.makedirs(a.out or ".", exist_ok=True)
        acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
        n = 2 if quick else a.trace_steps
        sessions = (("shapes", dict(record_shapes=True)), ("noshapes", dict()),
                    ("stack", dict(record_shapes=True, with_stack=True)))
        for name, kw in sessions:
            for _ in range(2):  # settle after the previous session
                step()
                torch.cuda.synchronize()
            path = os.path.join(a.out or ".", name + ".json")
            # A schedule, as users write it, so prof.step() marks ProfilerStep#1..n in the
            # trace (without one torch.profiler records no step ranges); one warm-up step.
            with profile(activities=acts, schedule=schedule(wait=0, warmup=1, active=n, repeat=1),
                         on_trace_ready=lambda p, path=path: p.export_chrome_trace(path), **kw) as prof:
                for _ in range(n + 1):
                    step()
                    torch.cuda.synchronize()
                    prof.step()
            if not os.path.exists(path):
                raise SystemExit(f"torch.profiler wrote no trace for {name}")
            _gzip(path)
        info.update({"trace_steps": n})
    else:  # plain
        n = a.steps or (3 if quick else 12)
        if max_steps:
            n = min(n, max_steps)
        for _ in range(n):
            step()
            torch.cuda.synchronize()
        info.update({"steps": n})
    info["gpu_phase_s"] = round(time.perf_counter() - t_gpu, 2)
    line = json.dumps(info)
    if a.mode == "truth" and a.out:
        with open(a.out, "a") as f:
            f.write(line + "\n")
    short = {k: v for k, v in info.items() if k != "step_ms"}
    print(json.dumps(short), file=sys.stderr if a.mode == "plain" else sys.stdout, flush=True)
