"""A tensor-parallel MLP decode step, one process per rank (start it with torchrun):
column- then row-parallel GEMMs and an all-reduce per layer, as a TP-N model decodes.
NCCL when each rank has its own GPU, gloo (the all-reduce through the host) when the
ranks share one, so the multi-process recording path can be checked on one GPU too.
Rank 0 prints the steps' wall time."""
import argparse
import os
import time

import torch
import torch.distributed as dist

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=200)
parser.add_argument("--layers", type=int, default=8)
parser.add_argument("--hidden", type=int, default=4096)
args = parser.parse_args()

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
gpus = torch.cuda.device_count()
device = torch.device("cuda", rank % gpus)
torch.cuda.set_device(device)
backend = "nccl" if gpus >= world else "gloo"
dist.init_process_group(backend, rank=rank, world_size=world)
ffn = 4 * args.hidden // world
up = [torch.randn(args.hidden, ffn, device=device, dtype=torch.bfloat16) for _ in range(args.layers)]
down = [torch.randn(ffn, args.hidden, device=device, dtype=torch.bfloat16) for _ in range(args.layers)]
x = torch.randn(8, args.hidden, device=device, dtype=torch.bfloat16)


def step(h):
    for u, d in zip(up, down):
        y = torch.nn.functional.silu(h @ u) @ d
        dist.all_reduce(y)
        h = torch.nn.functional.layer_norm(y + h, (args.hidden,))
    return h


for _ in range(10):
    step(x)
torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(args.steps):
    step(x)
torch.cuda.synchronize()
dist.barrier()
if rank == 0:
    print(f"backend {backend}, {world} ranks on {min(gpus, world)} GPU(s): "
          f"{(time.perf_counter() - t0) / args.steps * 1e3:.3f} ms per step")
dist.destroy_process_group()
