#!/usr/bin/env python3
"""No bug: batch-1 eager decode of eight Llama-70B-sized layers (hidden 8192, GQA 64/8
heads, SwiGLU 28672) over a 1024-token cache: each step streams 13.6 GB of bf16 weights,
memory-bound by nature (every kernel far longer than its launch)."""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, QH, KVH, HDIM, INTER, CTX = 8, 8192, 64, 8, 128, 28672, 1024


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    L = [dict(n1=torch.ones(HIDDEN, device=dev, dtype=dt), n2=torch.ones(HIDDEN, device=dev, dtype=dt),
              qkv=torch.randn(HIDDEN, (QH + 2 * KVH) * HDIM, device=dev, dtype=dt) * 0.01,
              o=torch.randn(QH * HDIM, HIDDEN, device=dev, dtype=dt) * 0.01,
              gu=torch.randn(HIDDEN, 2 * INTER, device=dev, dtype=dt) * 0.01,
              d=torch.randn(INTER, HIDDEN, device=dev, dtype=dt) * 0.01,
              k=torch.randn(1, KVH, CTX, HDIM, device=dev, dtype=dt),
              v=torch.randn(1, KVH, CTX, HDIM, device=dev, dtype=dt)) for _ in range(LAYERS)]
    x0 = torch.randn(1, 1, HIDDEN, device=dev, dtype=dt)

    @torch.inference_mode()
    def step():
        x = x0
        for w in L:
            h = F.rms_norm(x, (HIDDEN,), w["n1"], 1e-6)
            qkv = h @ w["qkv"]
            q = qkv[..., : QH * HDIM].view(1, 1, QH, HDIM).transpose(1, 2)
            a = F.scaled_dot_product_attention(q, w["k"], w["v"], enable_gqa=True)
            x = x + a.transpose(1, 2).reshape(1, 1, QH * HDIM) @ w["o"]
            h = F.rms_norm(x, (HIDDEN,), w["n2"], 1e-6)
            g, u = (h @ w["gu"]).chunk(2, -1)
            x = x + (F.silu(g) * u) @ w["d"]
        return x

    return step


if __name__ == "__main__":
    main(build, variants=("fixed",), doc=__doc__)
