#!/usr/bin/env python3
"""Batch-8 decode over a gathered KV workspace: every layer gathers its 262144 active
entries (512 MiB) out of a 1 GiB paged pool and attends over them; the step keeps the
four workspaces until it ends.
bug:   fresh workspaces every step (pool.index_select(...)) and torch.cuda.empty_cache()
       at the end of every step "to keep memory down": every step pays cudaFree
       (a device-wide sync) and cudaMalloc of 2 GiB again
fixed: the workspaces are allocated once and reused (index_select(..., out=buf)); no
       empty_cache()"""
import torch

from zoo_harness import main

LAYERS, POOL, ACTIVE, DIM, BATCH = 4, 524_288, 262_144, 1024, 8


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    pools = [torch.randn(POOL, DIM, device=dev, dtype=dt) for _ in range(LAYERS)]
    active = torch.randperm(POOL, device=dev)[:ACTIVE].sort().values
    q = torch.randn(BATCH, DIM, device=dev, dtype=dt)
    bufs = [torch.empty(ACTIVE, DIM, device=dev, dtype=dt) for _ in range(LAYERS)] if variant == "fixed" else None

    def gather(layer):
        if variant == "bug":
            return pools[layer].index_select(0, active)
        return torch.index_select(pools[layer], 0, active, out=bufs[layer])

    @torch.inference_mode()
    def step():
        workspaces = []
        out = None
        for layer in range(LAYERS):
            kv = gather(layer)
            workspaces.append(kv)
            scores = torch.softmax((q @ kv.t()).float(), dim=-1).to(dt)  # [BATCH, ACTIVE]
            out = scores @ kv
        del workspaces
        if variant == "bug":
            torch.cuda.empty_cache()
        return out

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
