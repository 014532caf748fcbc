#!/usr/bin/env python3
"""Batch-8 decode whose KV cache is offloaded to host memory: every layer, every step,
the layer's K and V (16 MiB each) are brought to the GPU before attention.
bug:   the host copies are ordinary (pageable) tensors moved with .to("cuda"): a staged,
       synchronous copy at a fraction of the link's speed
fixed: the host copies are pinned once (pin_memory()) and moved with
       .to("cuda", non_blocking=True): direct DMA, the host keeps launching"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, BATCH, HEADS, HDIM, CTX = 4, 8, 8, 128, 1024
HIDDEN = HEADS * HDIM


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    host_kv = [(torch.randn(BATCH, HEADS, CTX, HDIM, dtype=dt), torch.randn(BATCH, HEADS, CTX, HDIM, dtype=dt))
               for _ in range(LAYERS)]
    if variant == "fixed":
        host_kv = [(k.pin_memory(), v.pin_memory()) for k, v in host_kv]
    wq = [torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.02 for _ in range(LAYERS)]
    wo = [torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.02 for _ in range(LAYERS)]
    x0 = torch.randn(BATCH, 1, HIDDEN, device=dev, dtype=dt)

    def fetch(t):
        if variant == "bug":
            return t.to("cuda")
        return t.to("cuda", non_blocking=True)

    @torch.inference_mode()
    def step():
        x = x0
        for layer in range(LAYERS):
            k, v = (fetch(t) for t in host_kv[layer])
            q = (x @ wq[layer]).view(BATCH, 1, HEADS, HDIM).transpose(1, 2)
            o = F.scaled_dot_product_attention(q, k, v)
            x = x + o.transpose(1, 2).reshape(BATCH, 1, HIDDEN) @ wo[layer]
        return x

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
