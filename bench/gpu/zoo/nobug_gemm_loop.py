#!/usr/bin/env python3
"""No bug: a large bf16 GEMM loop (four 8192 x 8192 x 8192 products a step, alternating
between two input sets so the L2 cache does not serve them): tensor-core bound."""
import torch

from zoo_harness import main

N, PER_STEP = 8192, 4


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    sets = [(torch.randn(N, N, device=dev, dtype=dt), torch.randn(N, N, device=dev, dtype=dt)) for _ in range(2)]
    out = torch.empty(N, N, device=dev, dtype=dt)

    def step():
        for i in range(PER_STEP):
            a, b = sets[i % 2]
            torch.matmul(a, b, out=out)
        return out

    return step


if __name__ == "__main__":
    main(build, variants=("fixed",), doc=__doc__)
