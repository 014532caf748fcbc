#!/usr/bin/env python3
"""MLA-style decode over a paged FP8 KV pool (the seed's bug, bench/gpu/pool_gather.py).
bug:   pool.to(bf16)[page_table]  -- the whole pool (495k tokens) cast every layer
fixed: pool[page_table].to(bf16)  -- gather the active entries, cast only them"""
import torch

from zoo_harness import main

POOL, DIM, LAYERS, BATCH, CTX, HEADS = 495_040, 576, 8, 8, 384, 16


def build(variant):
    dev = "cuda"
    pools = [torch.randn(POOL, DIM, device=dev, dtype=torch.bfloat16).to(torch.float8_e4m3fn)
             for _ in range(LAYERS)]
    page_table = torch.randperm(POOL, device=dev)[:BATCH * CTX]
    q = torch.randn(BATCH, HEADS, DIM, device=dev, dtype=torch.bfloat16)

    def gather_kv(pool):
        if variant == "bug":
            return pool.to(torch.bfloat16)[page_table]
        return pool[page_table].to(torch.bfloat16)

    def attend(kv):
        kv = kv.view(BATCH, CTX, DIM)
        scores = torch.matmul(q, kv.transpose(1, 2)) / DIM**0.5
        return torch.matmul(torch.softmax(scores.float(), -1).to(torch.bfloat16), kv)

    def step():
        x = None
        for pool in pools:
            x = attend(gather_kv(pool))
        return x

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
