#!/usr/bin/env python3
"""A batch-2048 decode step (2048 sequences, one token each) through two MLP blocks
(hidden 2048, intermediate 5632).
bug:   the model is left in fp32 and TF32 is off (PyTorch's default,
       torch.backends.cuda.matmul.allow_tf32 = False): the GEMMs run on CUDA cores
       in full fp32, not on the tensor cores
fixed: model.to(torch.bfloat16): the same GEMMs on the tensor cores"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, HIDDEN, INTER, TOKENS = 2, 2048, 5632, 2048


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gate_up = torch.nn.Linear(HIDDEN, 2 * INTER, bias=False)
        self.down = torch.nn.Linear(INTER, HIDDEN, bias=False)

    def forward(self, x):
        g, u = self.gate_up(x).chunk(2, dim=-1)
        return x + self.down(F.silu(g) * u)


def build(variant):
    torch.backends.cuda.matmul.allow_tf32 = False  # the default, spelled out
    with torch.device("cuda"):
        model = torch.nn.Sequential(*[MLP() for _ in range(LAYERS)]).eval()
    dt = torch.float32 if variant == "bug" else torch.bfloat16
    model = model.to(dt)
    x = torch.randn(TOKENS, HIDDEN, device="cuda", dtype=dt)

    @torch.inference_mode()
    def step():
        return model(x)

    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
