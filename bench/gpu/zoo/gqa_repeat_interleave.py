#!/usr/bin/env python3
"""Batch-16 decode with grouped-query attention (32 query heads, 8 KV heads) over a
4096-token bf16 cache, four layers.
bug:   K and V are expanded to 32 heads every layer with repeat_interleave (transformers'
       repeat_kv): 4x the cache is written and read again before attention
fixed: F.scaled_dot_product_attention(..., enable_gqa=True) on the 8-head cache"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, BATCH, QHEADS, KVHEADS, CTX, HDIM = 4, 16, 32, 8, 4096, 128
HIDDEN, REP = QHEADS * HDIM, QHEADS // KVHEADS


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    caches = [(torch.randn(BATCH, KVHEADS, CTX, HDIM, device=dev, dtype=dt),
               torch.randn(BATCH, KVHEADS, CTX, HDIM, device=dev, dtype=dt)) for _ in range(LAYERS)]
    wq = [torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.01 for _ in range(LAYERS)]
    wo = [torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.01 for _ in range(LAYERS)]
    x0 = torch.randn(BATCH, 1, HIDDEN, device=dev, dtype=dt)

    def attention(q, k, v):
        if variant == "bug":
            k = k.repeat_interleave(REP, dim=1)
            v = v.repeat_interleave(REP, dim=1)
            return F.scaled_dot_product_attention(q, k, v)
        return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)

    @torch.inference_mode()
    def step():
        x = x0
        for layer in range(LAYERS):
            q = (x @ wq[layer]).view(BATCH, 1, QHEADS, HDIM).transpose(1, 2)
            o = attention(q, *caches[layer])
            x = x + o.transpose(1, 2).reshape(BATCH, 1, HIDDEN) @ wo[layer]
        return x

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
