#!/usr/bin/env python3
"""A prefill step: 4 prompts of 1024 tokens through two MLP blocks (hidden 2048), then the
lm_head (vocabulary 128256) to pick each prompt's first new token.
bug:   logits are computed for all 4096 positions, upcast to fp32 (as transformers'
       forward does), and only the last position of each prompt is used
fixed: the hidden states are sliced to the last position first (logits_to_keep=1):
       the lm_head GEMM and the upcast shrink 1024x"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, INTER, SEQS, SEQ, VOCAB = 2, 2048, 5632, 4, 1024, 128256


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    layers = [dict(norm=torch.ones(HIDDEN, device=dev, dtype=dt),
                   gu=torch.randn(HIDDEN, 2 * INTER, device=dev, dtype=dt) * 0.02,
                   d=torch.randn(INTER, HIDDEN, device=dev, dtype=dt) * 0.02) for _ in range(LAYERS)]
    lm_head = torch.randn(VOCAB, HIDDEN, device=dev, dtype=dt) * 0.02
    x0 = torch.randn(SEQS, SEQ, HIDDEN, device=dev, dtype=dt)
    keep = SEQ if variant == "bug" else 1

    @torch.inference_mode()
    def step():
        x = x0
        for w in layers:
            h = F.rms_norm(x, (HIDDEN,), w["norm"], 1e-6)
            g, u = (h @ w["gu"]).chunk(2, -1)
            x = x + (F.silu(g) * u) @ w["d"]
        logits = F.linear(x[:, -keep:, :], lm_head).float()
        return logits[:, -1, :].argmax(-1)

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
