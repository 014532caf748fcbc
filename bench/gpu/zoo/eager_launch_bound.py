#!/usr/bin/env python3
"""Batch-1 decode of a small 12-layer Llama-like model (hidden 1024) on a static KV cache.
bug:   the step runs eagerly: ~20 small kernels a layer, each shorter than its launch,
       so the GPU waits on the host (launch-bound)
fixed: the same step captured once in a CUDA graph (torch.cuda.graph) and replayed"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, HEADS, HDIM, INTER, CTX, VOCAB = 12, 1024, 8, 128, 2816, 512, 32000


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    L = [dict(n1=torch.ones(HIDDEN, device=dev, dtype=dt), n2=torch.ones(HIDDEN, device=dev, dtype=dt),
              qkv=torch.randn(HIDDEN, 3 * HIDDEN, device=dev, dtype=dt) * 0.02,
              o=torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.02,
              gu=torch.randn(HIDDEN, 2 * INTER, device=dev, dtype=dt) * 0.02,
              d=torch.randn(INTER, HIDDEN, device=dev, dtype=dt) * 0.02,
              k=torch.randn(1, HEADS, CTX, HDIM, device=dev, dtype=dt),
              v=torch.randn(1, HEADS, CTX, HDIM, device=dev, dtype=dt)) for _ in range(LAYERS)]
    emb = torch.randn(VOCAB, HIDDEN, device=dev, dtype=dt) * 0.02
    lm_head = torch.randn(HIDDEN, VOCAB, device=dev, dtype=dt) * 0.02
    token = torch.zeros(1, dtype=torch.long, device=dev)
    pos = torch.full((1,), CTX - 1, dtype=torch.long, device=dev)  # the slot rewritten each step
    inv = 1.0 / (10000 ** (torch.arange(0, HDIM, 2, device=dev, dtype=torch.float32) / HDIM))

    def rope(t, cos, sin):
        t1, t2 = t[..., : HDIM // 2], t[..., HDIM // 2:]
        return (t * cos + torch.cat([-t2, t1], dim=-1) * sin).to(dt)

    def forward():
        x = emb[token].view(1, 1, HIDDEN)
        ang = pos.float()[:, None] * inv[None, :]
        cos = torch.cat([ang.cos(), ang.cos()], -1).to(dt)
        sin = torch.cat([ang.sin(), ang.sin()], -1).to(dt)
        for w in L:
            h = F.rms_norm(x, (HIDDEN,), w["n1"], 1e-6)
            q, k, v = (h @ w["qkv"]).view(1, 1, 3, HEADS, HDIM).unbind(2)
            q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
            q, k = rope(q, cos, sin), rope(k, cos, sin)
            w["k"].index_copy_(2, pos, k)
            w["v"].index_copy_(2, pos, v)
            a = F.scaled_dot_product_attention(q, w["k"], w["v"])
            x = x + a.transpose(1, 2).reshape(1, 1, HIDDEN) @ w["o"]
            h = F.rms_norm(x, (HIDDEN,), w["n2"], 1e-6)
            g, u = (h @ w["gu"]).chunk(2, -1)
            x = x + (F.silu(g) * u) @ w["d"]
        logits = x.view(1, HIDDEN) @ lm_head
        token.copy_(logits.argmax(-1))
        return token

    if variant == "bug":
        return torch.inference_mode()(forward)

    with torch.inference_mode():
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                forward()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            forward()
    torch.cuda.synchronize()

    def step():
        graph.replay()
        return token

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
