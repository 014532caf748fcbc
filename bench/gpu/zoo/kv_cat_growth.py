#!/usr/bin/env python3
"""Batch-16 decode, four layers, an 8192-token KV cache that gains one token per step.
bug:   the cache grows with torch.cat([cache, new], dim=2) every layer, every step: the
       whole K and V are copied each time (the copy grows with the context)
fixed: the cache is preallocated to its maximum length once; each step writes the new
       token in place (index_copy_ at the position) and attends over cache[:, :, :len]
Both variants keep SDPA to the flash / memory-efficient kernels (sdpa_kernel): torch 2.11
on the H200 otherwise picks cuDNN attention, which builds a new plan for every new KV
length -- ~8 ms of host time per layer per step here (seen 2026-12-04), in both variants."""
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from zoo_harness import main

LAYERS, BATCH, HEADS, HDIM, CTX0, ROOM = 4, 16, 8, 128, 8192, 640
HIDDEN = HEADS * HDIM


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    wqkv = [torch.randn(HIDDEN, 3 * HIDDEN, device=dev, dtype=dt) * 0.02 for _ in range(LAYERS)]
    wo = [torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.02 for _ in range(LAYERS)]
    x0 = torch.randn(BATCH, 1, HIDDEN, device=dev, dtype=dt)
    if variant == "bug":
        cache = [[torch.randn(BATCH, HEADS, CTX0, HDIM, device=dev, dtype=dt) for _ in range(2)]
                 for _ in range(LAYERS)]
    else:
        cache = [[torch.empty(BATCH, HEADS, CTX0 + ROOM, HDIM, device=dev, dtype=dt) for _ in range(2)]
                 for _ in range(LAYERS)]
        for kv in cache:
            for t in kv:
                t[:, :, :CTX0].normal_()
    state = {"len": CTX0}
    positions = torch.arange(CTX0, CTX0 + ROOM, device=dev)  # on the GPU once: no copy per step

    def update_cache(layer, k, v):
        if variant == "bug":
            cache[layer][0] = torch.cat([cache[layer][0], k], dim=2)
            cache[layer][1] = torch.cat([cache[layer][1], v], dim=2)
            return cache[layer][0], cache[layer][1]
        pos = positions[state["len"] - CTX0:][:1]
        cache[layer][0].index_copy_(2, pos, k)
        cache[layer][1].index_copy_(2, pos, v)
        n = state["len"] + 1
        return cache[layer][0][:, :, :n], cache[layer][1][:, :, :n]

    @torch.inference_mode()
    def step():
        if state["len"] >= CTX0 + ROOM:  # the fixed cache is full: start the sequence again
            state["len"] = CTX0
            if variant == "bug":
                for kv in cache:
                    kv[0], kv[1] = kv[0][:, :, :CTX0].clone(), kv[1][:, :, :CTX0].clone()
        x = x0
        for layer in range(LAYERS):
            q, k, v = (x @ wqkv[layer]).view(BATCH, 1, 3, HEADS, HDIM).unbind(2)
            q, k, v = (t.transpose(1, 2) for t in (q, k, v))
            k_all, v_all = update_cache(layer, k, v)
            with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION]):
                o = F.scaled_dot_product_attention(q, k_all, v_all)
            x = x + o.transpose(1, 2).reshape(BATCH, 1, HIDDEN) @ wo[layer]
        state["len"] += 1
        return x

    step.info = lambda: {"context_len": state["len"]}
    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
