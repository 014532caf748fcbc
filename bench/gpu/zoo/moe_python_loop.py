#!/usr/bin/env python3
"""Batch-16 decode through four Mixtral-style MoE blocks (8 experts, top-2, hidden 2048).
bug:   the experts run in a Python loop, as transformers' eager Mixtral block writes it:
       per expert torch.where(expert_mask[e]) (a host sync: nonzero), index the tokens,
       three small GEMMs, index_add_ -- ~10 launches and one sync per expert per layer
fixed: the experts' weights are stacked once ([E, H, 2I], [E, I, H]) and every layer runs
       two torch.bmm over all experts, combined with the dense routing weights"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, INTER, EXPERTS, TOPK, TOKENS = 4, 2048, 5632, 8, 2, 16


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    layers = []
    for _ in range(LAYERS):
        layers.append(dict(norm=torch.ones(HIDDEN, device=dev, dtype=dt),
                           router=torch.randn(HIDDEN, EXPERTS, device=dev, dtype=dt) * 0.02,
                           w_gu=torch.randn(EXPERTS, HIDDEN, 2 * INTER, device=dev, dtype=dt) * 0.02,
                           w_d=torch.randn(EXPERTS, INTER, HIDDEN, device=dev, dtype=dt) * 0.02))
    x0 = torch.randn(TOKENS, HIDDEN, device=dev, dtype=dt)

    def route(h, w):
        probs = torch.softmax((h @ w["router"]).float(), dim=-1)
        top_w, top_i = torch.topk(probs, TOPK, dim=-1)
        return (top_w / top_w.sum(-1, keepdim=True)).to(dt), top_i

    def experts_loop(h, w, top_w, top_i):
        out = torch.zeros_like(h)
        expert_mask = F.one_hot(top_i, EXPERTS).permute(2, 1, 0)  # [E, K, T]
        for e in range(EXPERTS):
            idx, tok = torch.where(expert_mask[e])
            if tok.numel() == 0:
                continue
            cur = h[tok]
            g, u = (cur @ w["w_gu"][e]).chunk(2, dim=-1)
            y = (F.silu(g) * u) @ w["w_d"][e]
            out.index_add_(0, tok, y * top_w[tok, idx, None])
        return out

    def experts_batched(h, w, top_w, top_i):
        dense_w = torch.zeros(TOKENS, EXPERTS, device=dev, dtype=dt).scatter_(1, top_i, top_w)
        g, u = torch.bmm(h.expand(EXPERTS, TOKENS, HIDDEN), w["w_gu"]).chunk(2, dim=-1)
        y = torch.bmm(F.silu(g) * u, w["w_d"])  # [E, T, H]
        return (y * dense_w.t()[:, :, None]).sum(0)

    @torch.inference_mode()
    def step():
        x = x0
        for w in layers:
            h = F.rms_norm(x, (HIDDEN,), w["norm"], 1e-6)
            top_w, top_i = route(h, w)
            moe = experts_loop if variant == "bug" else experts_batched
            x = x + moe(h, w, top_w, top_i)
        return x

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
