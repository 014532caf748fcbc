#!/usr/bin/env python3
"""Writes a torch.profiler trace (record_shapes=True) of work of known size:
an FP8->bf16 cast of a 496000 x 576 pool (857 MB moved), a bf16 copy of the
same size, and bf16 GEMMs of known shape; prints what cuprobe must find.
Usage: work_shapes.py OUT.json EXPECT.json"""
import json
import sys

import torch

out, expect_path = sys.argv[1], sys.argv[2]
dev = "cuda"
rows, dim = 496000, 576
pool = torch.randn(rows, dim, device=dev, dtype=torch.bfloat16).to(torch.float8_e4m3fn)
src16 = torch.randn(rows, dim, device=dev, dtype=torch.bfloat16)
dst16 = torch.empty_like(src16)
gemms = [(4096, 4096, 4096), (8, 576, 4096), (2048, 8192, 1024)]
mats = [(torch.randn(m, k, device=dev, dtype=torch.bfloat16), torch.randn(k, n, device=dev, dtype=torch.bfloat16))
        for m, k, n in gemms]

def work():
    pool.to(torch.bfloat16)            # aten::to -> _to_copy -> copy_: the cast
    dst16.copy_(src16)                 # a plain bf16 copy
    for a, b in mats:
        torch.mm(a, b)

for _ in range(3):  # warm-up: cuBLAS heuristics, allocator
    work()
torch.cuda.synchronize()
acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
    for _ in range(5):
        with torch.profiler.record_function("work_step"):
            work()
        torch.cuda.synchronize()
prof.export_chrome_trace(out)


def event_tbps(fn, nbytes, reps=20):
    """Bandwidth from CUDA events around `reps` back-to-back calls: independent of the profiler."""
    fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return nbytes * reps / (start.elapsed_time(end) * 1e-3) / 1e12


expect = {
    "calls": 5,
    "cast_bytes_per_call": rows * dim * (1 + 2),
    "copy_bytes_per_call": rows * dim * (2 + 2),
    "gemm_flops_per_call": {f"{m}x{k}x{n}": 2 * m * k * n for m, k, n in gemms},
    "gemm_bytes_per_call": {f"{m}x{k}x{n}": 2 * (m * k + k * n + m * n) for m, k, n in gemms},
    "cast_event_tbps": event_tbps(lambda: pool.to(torch.bfloat16), rows * dim * 3),
    "copy_event_tbps": event_tbps(lambda: dst16.copy_(src16), rows * dim * 4),
}
json.dump(expect, open(expect_path, "w"), indent=1)
print(json.dumps(expect))
