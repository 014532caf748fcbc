#!/usr/bin/env python3
"""Batch-8 sampling decode: eight MLP blocks (hidden 4096) and a 32000-word lm_head on the
GPU, then sampling (repetition penalty, temperature, top-k 50, top-p 0.9) and
detokenizing with a stop-string check.
bug:   the logits are copied to the host every step and sampled with numpy; the
       detokenizer runs after it; the GPU waits idle for all of that host work
fixed: sampling runs on the GPU (torch.topk / softmax / multinomial), only the 8 token
       ids come back, and the previous step's detokenizing runs on the host while the
       GPU computes the current step"""
import re

import numpy as np
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, INTER, BATCH, VOCAB, TOPK, TOPP, TEMP, PENALTY = 8, 4096, 11008, 8, 32000, 50, 0.9, 0.8, 1.1
WORDS = [f" w{i % 977}" + ("." if i % 53 == 0 else "") for i in range(VOCAB)]
STOP = re.compile(r"w1[0-9]{2}\. w2")


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    layers = [dict(norm=torch.ones(HIDDEN, device=dev, dtype=dt),
                   gu=torch.randn(HIDDEN, 2 * INTER, device=dev, dtype=dt) * 0.01,
                   d=torch.randn(INTER, HIDDEN, device=dev, dtype=dt) * 0.01) for _ in range(LAYERS)]
    emb = torch.randn(VOCAB, HIDDEN, device=dev, dtype=dt) * 0.02
    lm_head = torch.randn(HIDDEN, VOCAB, device=dev, dtype=dt) * 0.05
    tokens = torch.zeros(BATCH, dtype=torch.long, device=dev)
    history = [[0] for _ in range(BATCH)]
    texts = [""] * BATCH
    rng = np.random.default_rng(0)
    gen = torch.Generator(device=dev).manual_seed(0)
    seen = torch.zeros(BATCH, VOCAB, dtype=torch.bool, device=dev)
    state = {"prev": None}

    def forward():
        x = emb[tokens]
        for w in layers:
            h = F.rms_norm(x, (HIDDEN,), w["norm"], 1e-6)
            g, u = (h @ w["gu"]).chunk(2, -1)
            x = x + (F.silu(g) * u) @ w["d"]
        return (x @ lm_head).float()  # [BATCH, VOCAB]

    def sample_on_host(logits):
        out = np.empty(BATCH, dtype=np.int64)
        for b in range(BATCH):
            row = logits[b] / TEMP
            for t in set(history[b][-256:]):  # repetition penalty
                row[t] = row[t] / PENALTY if row[t] > 0 else row[t] * PENALTY
            top = np.argpartition(-row, TOPK)[:TOPK]
            top = top[np.argsort(-row[top])]
            p = np.exp(row[top] - row[top[0]])
            p /= p.sum()
            keep = int(np.searchsorted(np.cumsum(p), TOPP)) + 1
            p = p[:keep] / p[:keep].sum()
            out[b] = top[rng.choice(keep, p=p)]
        return out

    def sample_on_gpu(logits):
        logits = torch.where(seen, torch.where(logits > 0, logits / PENALTY, logits * PENALTY), logits) / TEMP
        top_v, top_i = torch.topk(logits, TOPK, dim=-1)
        p = torch.softmax(top_v, dim=-1)
        cum = p.cumsum(-1)
        p = p.masked_fill(cum - p > TOPP, 0.0)
        choice = torch.multinomial(p, 1, generator=gen)
        ids = top_i.gather(1, choice).squeeze(1)
        seen.scatter_(1, ids[:, None], True)
        return ids

    def detokenize(ids):
        for b, t in enumerate(ids.tolist()):
            history[b].append(t)
            texts[b] = (texts[b] + WORDS[t])[-4096:]
            if STOP.search(texts[b][-64:]):
                texts[b] = ""

    @torch.inference_mode()
    def step():
        if variant == "bug":
            logits = forward().cpu().numpy()
            ids = sample_on_host(logits)
            detokenize(ids)
            tokens.copy_(torch.from_numpy(ids))
            return tokens
        ids = sample_on_gpu(forward())
        tokens.copy_(ids)
        if state["prev"] is not None:
            detokenize(state["prev"])  # overlaps the GPU's work on this step
        state["prev"] = ids.cpu()
        return tokens

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
