#!/usr/bin/env python3
"""A CUDA-graph decode loop with a known answer, for checking `analyze`'s steps:
a 24-layer step (RMSNorm, two small GEMMs, SiLU per layer, batch 8) captured
once with torch.cuda.graph, run eagerly --warmup times first, then replayed
--replays times; after each replay an eager argmax reads the token back (.item(),
one host sync per step, as a serving engine samples). No step annotations.

CUDA events around every replay give the truth: `event_step_ms` is the median
time from one replay's start to the next's (the step), `event_replay_ms` the
median replay alone. Prints one JSON line. --mode torch-profiler records the
replays with torch.profiler and writes the trace to --trace."""
import argparse, json, statistics

import torch

p = argparse.ArgumentParser()
p.add_argument("--replays", type=int, default=3000)
p.add_argument("--warmup", type=int, default=20, help="eager steps before the capture")
p.add_argument("--layers", type=int, default=24)
p.add_argument("--hidden", type=int, default=2048)
p.add_argument("--batch", type=int, default=8)
p.add_argument("--mode", choices=["plain", "torch-profiler"], default="plain")
p.add_argument("--trace", default="")
args = p.parse_args()

torch.manual_seed(0)
dev = torch.device("cuda")
dt = torch.bfloat16
H = args.hidden
layers = [dict(norm=torch.ones(H, device=dev, dtype=dt),
               w1=torch.randn(H, 2 * H, device=dev, dtype=dt) * 0.02,
               w2=torch.randn(H, H, device=dev, dtype=dt) * 0.02) for _ in range(args.layers)]


def step(x):
    for l in layers:
        v = x.float()
        v = v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + 1e-6)
        h = v.to(dt) * l["norm"]
        g, u = (h @ l["w1"]).chunk(2, dim=-1)
        x = x + (torch.nn.functional.silu(g) * u) @ l["w2"]
    return x * 0.5


static_x = torch.randn(args.batch, H, device=dev, dtype=dt)
for _ in range(args.warmup):  # eager warm-up, as engines run before capturing
    step(static_x).argmax(-1)[0].item()
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    for _ in range(3):
        step(static_x)
torch.cuda.current_stream().wait_stream(side)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    static_y = step(static_x)
torch.cuda.synchronize()

starts = [torch.cuda.Event(enable_timing=True) for _ in range(args.replays + 1)]
ends = [torch.cuda.Event(enable_timing=True) for _ in range(args.replays)]


def replay_all():
    for i in range(args.replays):
        starts[i].record()
        graph.replay()
        ends[i].record()
        static_y.argmax(-1)[0].item()
    starts[args.replays].record()
    torch.cuda.synchronize()


if args.mode == "torch-profiler":
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        replay_all()
    if args.trace:
        prof.export_chrome_trace(args.trace)
else:
    replay_all()

step_ms = [starts[i].elapsed_time(starts[i + 1]) for i in range(args.replays)]
replay_ms = [starts[i].elapsed_time(ends[i]) for i in range(args.replays)]
print(json.dumps({"mode": args.mode, "replays": args.replays, "warmup": args.warmup, "layers": args.layers,
                  "event_step_ms": statistics.median(step_ms), "event_replay_ms": statistics.median(replay_ms)}),
      flush=True)
