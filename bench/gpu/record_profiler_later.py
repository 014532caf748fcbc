#!/usr/bin/env python3
"""Coexistence check: a process under `cuprobe record` starts torch.profiler in the
middle of its run (50 GEMM steps before, 20 inside the profiler, 30 after). Prints
one JSON line: how many GPU events torch.profiler saw."""
import json

import torch
from torch.profiler import ProfilerActivity, profile


def work(n, x):
    for _ in range(n):
        x = x @ x * 1e-3
    torch.cuda.synchronize()
    return x


x = work(50, torch.ones(1024, 1024, device="cuda"))
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    x = work(20, x)
n = sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)
work(30, x)
print(json.dumps({"torch_profiler_gpu_events": n}), flush=True)
