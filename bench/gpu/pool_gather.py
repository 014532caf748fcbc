#!/usr/bin/env python3
"""An MLA-style decode over a paged FP8 KV pool, written the way users write it,
with one gather spelling per run. Casting the whole pool and then gathering
(`pool.to(bf16)[page_table]`) is the bug; gathering and then casting the active
entries (`pool[page_table].to(bf16)`) is the fix.

Usage: pool_gather.py SPELLING MODE OUT
  SPELLING: index | index_select | gather | take | index2d
  MODE: truth  -> prints JSON: CUDA-event step time of the whole-pool form and of
                  the fixed form (no profiler in this process)
        trace  -> writes a torch.profiler trace (record_shapes=True) of the whole-pool
                  form to OUT (10 steps, each in record_function('decode_step'))
        graph  -> writes a trace of the fixed form captured in a CUDA graph, 20 replays,
                  each followed by a 1 KB read-back of token ids (no annotations), and
                  prints the CUDA-event time of a replay and of a replay + read-back
The truth and the trace run in separate processes: a profiler session leaves its
process slower afterwards."""
import json
import sys

import torch

spelling, mode, out = sys.argv[1], sys.argv[2], sys.argv[3]
dev = "cuda"
torch.manual_seed(0)
pool_tokens, dim, layers = 495_040, 576, 8  # whole pages of 64
page_size = 64
batch, ctx, heads = 8, 384, 16  # 8 requests of 384 tokens: 3072 active entries
pools = [torch.randn(pool_tokens, dim, device=dev, dtype=torch.bfloat16).to(torch.float8_e4m3fn)
         for _ in range(layers)]
active = batch * ctx
page_table = torch.randperm(pool_tokens, device=dev)[:active]
q = torch.randn(batch, heads, dim, device=dev, dtype=torch.bfloat16)


def gather_whole(pool):
    """Cast the whole pool, then gather the active rows (the bug)."""
    full = pool.to(torch.bfloat16)
    if spelling == "index":
        return full[page_table]
    if spelling == "index_select":
        return torch.index_select(full, 0, page_table)
    if spelling == "gather":
        return torch.gather(full, 0, page_table[:, None].expand(-1, dim))
    if spelling == "take":
        flat = (page_table[:, None] * dim + torch.arange(dim, device=dev)[None, :]).flatten()
        return full.flatten().take(flat).view(active, dim)
    if spelling == "index2d":
        pages = full.view(-1, page_size, dim)
        page_ids, offsets = page_table // page_size, page_table % page_size
        return pages[page_ids, offsets]
    raise SystemExit(f"unknown spelling {spelling}")


def gather_fixed(pool):
    """Gather the active rows, then cast only them (the fix)."""
    return pool[page_table].to(torch.bfloat16)


def attend(kv):
    kv = kv.view(batch, ctx, dim)
    scores = torch.matmul(q, kv.transpose(1, 2)) / dim**0.5  # [b, h, ctx]
    return torch.matmul(torch.softmax(scores.float(), -1).to(torch.bfloat16), kv)


def step(gather):
    x = None
    for pool in pools:
        x = attend(gather(pool))
    return x


def event_ms(gather, reps=30):
    for _ in range(3):
        step(gather)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        step(gather)
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps


if mode == "truth":
    whole, fixed = event_ms(gather_whole), event_ms(gather_fixed)
    assert torch.equal(gather_whole(pools[0]), gather_fixed(pools[0]))
    print(json.dumps({"spelling": spelling, "whole_pool_step_ms": round(whole, 4),
                      "fixed_step_ms": round(fixed, 4),
                      "fix_change_pct": round(100 * (fixed - whole) / whole, 1),
                      "layers": layers, "pool_tokens": pool_tokens, "active_entries": active,
                      "cast_bytes_per_layer": pool_tokens * dim * 3}))
elif mode == "trace":
    for _ in range(3):
        step(gather_whole)
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
        for _ in range(10):
            with torch.profiler.record_function("decode_step"):
                step(gather_whole)
        torch.cuda.synchronize()
    prof.export_chrome_trace(out)
elif mode == "graph":
    def replay_and_read():
        graph.replay()
        return top_ids.cpu()  # 8 x 16 int64: 1 KB read back every step, as a sampler would

    static = None
    top_ids = None
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step(gather_fixed)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static = step(gather_fixed)
        top_ids = static.float().sum(1).topk(16, dim=-1).indices
    truth = {}
    for name, fn in (("replay_ms", graph.replay), ("replay_and_readback_ms", replay_and_read)):
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(50):
            fn()
        end.record()
        torch.cuda.synchronize()
        truth[name] = round(start.elapsed_time(end) / 50, 4)
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
        for _ in range(20):
            replay_and_read()
        torch.cuda.synchronize()
    prof.export_chrome_trace(out)
    print(json.dumps({"mode": "graph", "replays": 20, **truth}))
else:
    raise SystemExit(f"unknown mode {mode}")
