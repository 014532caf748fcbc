#!/usr/bin/env python3
"""Batch-8 decode through eight Llama-70B-sized MLP blocks (hidden 8192, intermediate
28672; each ~0.35 ms of GPU time, longer than its launches) with an overflow guard.
bug:   the guard reads back inside the layer loop: `if not torch.isfinite(x).all().item()`
       after every layer -- one host sync per layer; the GPU idles while the host
       launches the next layer
fixed: the guard is accumulated on the GPU and read back once per step"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, INTER, BATCH = 8, 8192, 28672, 8


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    layers = [dict(norm=torch.ones(HIDDEN, device=dev, dtype=dt),
                   gate_up=torch.randn(HIDDEN, 2 * INTER, device=dev, dtype=dt) * 0.005,
                   down=torch.randn(INTER, HIDDEN, device=dev, dtype=dt) * 0.005) for _ in range(LAYERS)]
    x0 = torch.randn(BATCH, HIDDEN, device=dev, dtype=dt)

    def block(x, w):
        h = F.rms_norm(x, (HIDDEN,), w["norm"], 1e-6)
        g, u = (h @ w["gate_up"]).chunk(2, dim=-1)
        return x + (F.silu(g) * u) @ w["down"]

    @torch.inference_mode()
    def step():
        x = x0
        ok = torch.ones((), dtype=torch.bool, device=dev)
        for w in layers:
            x = block(x, w)
            if variant == "bug":
                if not torch.isfinite(x).all().item():
                    raise FloatingPointError("overflow")
            else:
                ok &= torch.isfinite(x).all()
        if variant == "fixed" and not ok.item():
            raise FloatingPointError("overflow")
        return x

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
