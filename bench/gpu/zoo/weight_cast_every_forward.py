#!/usr/bin/env python3
"""Batch-8 decode through four Llama-70B-sized MLP blocks whose weights stay in fp32.
bug:   the model is left in fp32 and run under torch.autocast(bfloat16): in inference
       autocast casts every weight to bf16 again on every forward (a copy of 4 B -> 2 B
       per weight, each layer, each step) before the bf16 GEMM
fixed: model.to(torch.bfloat16) once at load; the same forward, no autocast"""
import torch
import torch.nn.functional as F

from zoo_harness import main

HIDDEN, INTER, LAYERS, BATCH = 8192, 28672, 4, 8


class MLPBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = torch.nn.RMSNorm(HIDDEN, eps=1e-6)
        self.gate = torch.nn.Linear(HIDDEN, INTER, bias=False)
        self.up = torch.nn.Linear(HIDDEN, INTER, bias=False)
        self.down = torch.nn.Linear(INTER, HIDDEN, bias=False)

    def forward(self, x):
        h = self.norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList(MLPBlock() for _ in range(LAYERS))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def build(variant):
    with torch.device("cuda"):
        model = Model().eval()
    for p in model.parameters():
        torch.nn.init.normal_(p, std=0.01) if p.dim() > 1 else torch.nn.init.ones_(p)
    if variant == "fixed":
        model = model.to(torch.bfloat16)
    x = torch.randn(BATCH, HIDDEN, device="cuda", dtype=torch.bfloat16)

    @torch.inference_mode()
    def step():
        if variant == "bug":
            with torch.autocast("cuda", dtype=torch.bfloat16):
                return model(x.float())
        return model(x)

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
