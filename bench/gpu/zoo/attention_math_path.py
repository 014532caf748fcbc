#!/usr/bin/env python3
"""Batch-32 decode attention over a 2048-token bf16 KV cache, four layers.
bug:   attention written out by hand "for numerical safety": q, K and V upcast to fp32,
       an explicit additive mask, matmul + softmax + matmul (the math path: K and V are
       copied to fp32 every layer and read again by fp32 GEMMs)
fixed: F.scaled_dot_product_attention on the bf16 cache (one fused kernel reads K/V once)"""
import math

import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, BATCH, HEADS, CTX, HDIM = 4, 32, 32, 2048, 128
HIDDEN = HEADS * HDIM


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    caches = [(torch.randn(BATCH, HEADS, CTX, HDIM, device=dev, dtype=dt),
               torch.randn(BATCH, HEADS, CTX, HDIM, device=dev, dtype=dt)) for _ in range(LAYERS)]
    wq = [torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.01 for _ in range(LAYERS)]
    wo = [torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.01 for _ in range(LAYERS)]
    x0 = torch.randn(BATCH, 1, HIDDEN, device=dev, dtype=dt)
    mask = torch.zeros(BATCH, 1, 1, CTX, device=dev, dtype=torch.float32)  # all positions valid

    def eager_attention(q, k, v):
        scores = torch.matmul(q.float(), k.float().transpose(2, 3)) / math.sqrt(HDIM)
        scores = scores + mask
        probs = torch.softmax(scores, dim=-1)
        return torch.matmul(probs, v.float()).to(dt)

    def attention(q, k, v):
        if variant == "bug":
            return eager_attention(q, k, v)
        return F.scaled_dot_product_attention(q, k, v)

    @torch.inference_mode()
    def step():
        x = x0
        for layer in range(LAYERS):
            q = (x @ wq[layer]).view(BATCH, 1, HEADS, HDIM).transpose(1, 2)
            k, v = caches[layer]
            o = attention(q, k, v).transpose(1, 2).reshape(BATCH, 1, HIDDEN)
            x = x + o @ wo[layer]
        return x

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
