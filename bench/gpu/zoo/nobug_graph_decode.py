#!/usr/bin/env python3
"""No bug: a batch-8 decode step of a 12-layer model (hidden 2048; RMSNorm, GQA attention
with SDPA over a static 1024-token cache written in place, SwiGLU MLP, lm_head) captured
once in a CUDA graph and replayed; the sampled token ids are read back once per step."""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, QH, KVH, HDIM, INTER, CTX, VOCAB, BATCH = 12, 2048, 16, 4, 128, 5632, 1024, 32000, 8


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    L = [dict(n1=torch.ones(HIDDEN, device=dev, dtype=dt), n2=torch.ones(HIDDEN, device=dev, dtype=dt),
              qkv=torch.randn(HIDDEN, (QH + 2 * KVH) * HDIM, device=dev, dtype=dt) * 0.02,
              o=torch.randn(QH * HDIM, HIDDEN, device=dev, dtype=dt) * 0.02,
              gu=torch.randn(HIDDEN, 2 * INTER, device=dev, dtype=dt) * 0.02,
              d=torch.randn(INTER, HIDDEN, device=dev, dtype=dt) * 0.02,
              k=torch.randn(BATCH, KVH, CTX, HDIM, device=dev, dtype=dt),
              v=torch.randn(BATCH, KVH, CTX, HDIM, device=dev, dtype=dt)) for _ in range(LAYERS)]
    emb = torch.randn(VOCAB, HIDDEN, device=dev, dtype=dt) * 0.02
    lm_head = torch.randn(HIDDEN, VOCAB, device=dev, dtype=dt) * 0.02
    tokens = torch.zeros(BATCH, dtype=torch.long, device=dev)
    pos = torch.full((1,), CTX - 1, dtype=torch.long, device=dev)

    def forward():
        x = emb[tokens].view(BATCH, 1, HIDDEN)
        for w in L:
            h = F.rms_norm(x, (HIDDEN,), w["n1"], 1e-6)
            qkv = h @ w["qkv"]
            q = qkv[..., : QH * HDIM].view(BATCH, 1, QH, HDIM).transpose(1, 2)
            k = qkv[..., QH * HDIM: (QH + KVH) * HDIM].view(BATCH, 1, KVH, HDIM).transpose(1, 2)
            v = qkv[..., (QH + KVH) * HDIM:].view(BATCH, 1, KVH, HDIM).transpose(1, 2)
            w["k"].index_copy_(2, pos, k)
            w["v"].index_copy_(2, pos, v)
            a = F.scaled_dot_product_attention(q, w["k"], w["v"], enable_gqa=True)
            x = x + a.transpose(1, 2).reshape(BATCH, 1, QH * HDIM) @ w["o"]
            h = F.rms_norm(x, (HIDDEN,), w["n2"], 1e-6)
            g, u = (h @ w["gu"]).chunk(2, -1)
            x = x + (F.silu(g) * u) @ w["d"]
        tokens.copy_((x.view(BATCH, HIDDEN) @ lm_head).argmax(-1))

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
        return tokens.cpu()  # the sampler's read-back, once per step

    return step


if __name__ == "__main__":
    main(build, variants=("fixed",), doc=__doc__)
