#!/usr/bin/env python3
"""A decode-like loop for `cuprobe record` validation: many small kernels per
step (RMSNorm, small GEMMs, elementwise ops per layer, batch 8), one host sync
per step as a decode loop does to sample tokens. Prints one JSON line with the
step-time statistics of the measured steps.

Modes: plain; torch-profiler (the measured steps inside torch.profiler, trace
exported to --trace after timing). Options for the fault/window tests:
--kill-at N (SIGKILL itself at step N), --profiler-api (cudaProfilerStart/Stop
around the measured steps)."""
import argparse, json, os, signal, statistics, sys, time

import torch

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=300)
p.add_argument("--warmup", type=int, default=50)
p.add_argument("--layers", type=int, default=24)
p.add_argument("--hidden", type=int, default=2048)
p.add_argument("--batch", type=int, default=8)
p.add_argument("--mode", choices=["plain", "torch-profiler"], default="plain")
p.add_argument("--trace", default="")
p.add_argument("--profiler-api", action="store_true")
p.add_argument("--kill-at", type=int, default=-1)
p.add_argument("--sleep-per-step", type=float, default=0.0)
p.add_argument("--tag", default="")
p.add_argument("--graph", action="store_true", help="replay each step as one CUDA graph, as serving engines do")
p.add_argument("--alternate", type=int, default=0,
               help="N: cudaProfilerStart/Stop every N measured steps, and report the step medians of the "
                    "on and off blocks apart: under `cuprobe record --capture cuda-profiler` that compares "
                    "collecting with not collecting inside one process, free of run-to-run drift")
args = p.parse_args()

torch.manual_seed(0)
dev = torch.device("cuda")
dt = torch.bfloat16
H = args.hidden
layers = [
    dict(norm=torch.ones(H, device=dev, dtype=dt),
         w1=torch.randn(H, 2 * H, device=dev, dtype=dt) * 0.02,
         w2=torch.randn(H, H, device=dev, dtype=dt) * 0.02)
    for _ in range(args.layers)
]
x0 = torch.randn(args.batch, H, device=dev, dtype=dt)


def step(x):
    for l in layers:
        v = x.float()
        v = v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + 1e-6)
        h = v.to(dt) * l["norm"]
        gu = h @ l["w1"]
        g, u = gu.chunk(2, dim=-1)
        a = torch.nn.functional.silu(g) * u
        x = x + a @ l["w2"]
    return x


graph = None
if args.graph:
    static_x = x0.clone()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step(static_x)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_y = step(static_x) * 0.5


def run(n, times=None, on_flags=None):
    x = x0
    for i in range(n):
        if args.alternate and on_flags is not None and i % args.alternate == 0:
            torch.cuda.synchronize()
            (torch.cuda.profiler.start if (i // args.alternate) % 2 == 0 else torch.cuda.profiler.stop)()
        if args.kill_at >= 0 and i == args.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        t0 = time.perf_counter()
        torch.cuda.nvtx.range_push("step")
        if graph is not None:
            graph.replay()
        else:
            x = step(x)
            x = x * 0.5  # keep values bounded
        torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        if times is not None:
            times.append(time.perf_counter() - t0)
            if on_flags is not None:
                on_flags.append((i // args.alternate) % 2 == 0 if args.alternate else True)
        if args.sleep_per_step:
            time.sleep(args.sleep_per_step)
    return x


run(args.warmup)
torch.cuda.synchronize()
times = []
torch.cuda.nvtx.range_push("measure")
if args.profiler_api:
    torch.cuda.profiler.start()
if args.mode == "torch-profiler":
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        run(args.steps, times)
    if args.trace:
        prof.export_chrome_trace(args.trace)
else:
    on_flags = []
    run(args.steps, times, on_flags)
    if args.alternate:
        torch.cuda.profiler.stop()
if args.profiler_api:
    torch.cuda.profiler.stop()
torch.cuda.nvtx.range_pop()
extra = {}
if args.alternate and args.mode == "plain":
    on = [t * 1e3 for t, f in zip(times, on_flags) if f]
    off = [t * 1e3 for t, f in zip(times, on_flags) if not f]
    extra = {"alternate": args.alternate, "on_median_ms": statistics.median(on), "off_median_ms": statistics.median(off),
             "on_over_off": statistics.median(on) / statistics.median(off)}
ms = sorted(t * 1e3 for t in times)
print(json.dumps({**extra, "tag": args.tag, "mode": args.mode, "graph": args.graph, "steps": len(ms), "median_ms": statistics.median(ms),
                  "mean_ms": statistics.fmean(ms), "p10_ms": ms[len(ms) // 10], "p90_ms": ms[len(ms) * 9 // 10]}), flush=True)
