#!/usr/bin/env python3
"""Coexistence check: torch.profiler takes CUPTI before the process touches
CUDA, so when `cuprobe record` injects at cuInit another tool already holds
CUPTI. Prints how many kernels torch.profiler saw."""
import torch
from torch.profiler import ProfilerActivity, profile

with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    x = torch.ones(1024, 1024, device="cuda")
    for _ in range(20):
        x = x @ x * 1e-3
    torch.cuda.synchronize()
n = sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)
print(f"torch.profiler saw {n} GPU events", flush=True)
