#!/usr/bin/env python3
"""Writes gather_spelling_*.json: the whole-pool cast followed by a gather, as
torch.profiler (record_shapes=True) records each spelling of the gather in
torch 2.11: 3 decode steps x 2 layers; each layer casts the whole FP8 pool
(100000 x 576) to bf16 (aten::to -> aten::_to_copy -> aten::copy_, 172.8 MB,
172.8 us: 1.0 TB/s), gathers 4096 rows of the bf16 copy, and hands them to a
bf16 bmm [8, 1, 576] x [8, 576, 512] (the gathered rows viewed as [8, 512, 576]
and transposed).

Spellings (the file's suffix):
  index_noshape   pool.to(bf16)[page_table]: aten::index, indices recorded as []
                  (torch 2.11), PyTorch's vectorized_gather_kernel<16, long>
                  with grid [4096, 1, 1] (one block row per gathered row)
  index_2d        pool.to(bf16).view(200, 500, 576)[pages, slots]: aten::index on
                  two dims, indices [], index_elementwise_kernel<128, 4> with
                  grid ceil(4096 * 576 / 512) = 4608
  consumer        aten::index, indices [], a gather kernel cuprobe cannot read
                  the size from: sized by the bmm that consumes the rows
  index_select    torch.index_select(pool.to(bf16), 0, idx): aten::index_select
                  -> aten::gather with the index expanded to [4096, 576]
                  (strides [1, 0]: 4096 int64 in memory, not 2.4 M) and out=
"""
import json
import sys

ROWS, DIM, ACTIVE = 100000, 576, 4096
BF16, FP8 = "c10::BFloat16", "c10::Float8_e4m3fn"


def make(spelling):
    ev = []
    corr = [1000]
    t = [1000.0]

    def op(name, dur, dims, types, strides=None, concrete=None):
        e = {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": t[0], "dur": dur,
             "args": {"External id": 1, "Input Dims": dims, "Input type": types,
                      "Input Strides": strides or [[] for _ in dims],
                      "Concrete Inputs": concrete or [""] * len(types)}}
        ev.append(e)
        return e

    def launch_kernel(name, gpu_ts, gpu_dur, grid, block):
        corr[0] += 1
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": t[0] + 1, "dur": 3, "args": {"correlation": corr[0]}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": gpu_ts, "dur": gpu_dur,
                   "args": {"device": 0, "stream": 7, "correlation": corr[0], "grid": grid, "block": block}})

    cast = ("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
            "::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}, "
            "std::array<char*, 2ul>, 4>(int)")
    vgather = "void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool)"
    elementwise = ("void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::"
                   "index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, "
                   "c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, "
                   "c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<2> >"
                   "(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, "
                   "long)#1} const&, bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<...>::{lambda(int)#1})")
    gemm = "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT"
    gpu = 1000.0
    for step in range(3):
        step_start = t[0]
        ann = {"ph": "X", "cat": "user_annotation", "name": "decode_step", "pid": 1, "tid": 1, "ts": step_start,
               "dur": 0, "args": {}}
        ev.append(ann)
        for layer in range(2):
            t[0] += 5
            op("aten::to", 20, [[ROWS, DIM], [], [], [], [], []], [FP8, "Scalar", "", "", "Scalar", "Scalar"],
               [[DIM, 1], [], [], [], [], []], ["", "15", "", "", "False", "False"])
            t[0] += 1
            op("aten::_to_copy", 18, [[ROWS, DIM], [], [], [], [], [], []], [FP8, "Scalar", "", "", "", "Scalar", ""],
               [[DIM, 1], [], [], [], [], [], []], ["", "15", "", "", "", "False", ""])
            t[0] += 1
            op("aten::copy_", 10, [[ROWS, DIM], [ROWS, DIM], []], [BF16, FP8, "Scalar"], [[DIM, 1], [DIM, 1], []],
               ["", "", "False"])
            launch_kernel(cast, gpu, 172.8, [ROWS * DIM // 512, 1, 1], [128, 1, 1])
            gpu += 175
            t[0] += 30
            if spelling == "index_noshape":
                op("aten::index", 10, [[ROWS, DIM], []], [BF16, "GenericList"], [[DIM, 1], []])
                launch_kernel(vgather, gpu, 4, [ACTIVE, 1, 1], [96, 1, 1])
            elif spelling == "index_2d":
                op("aten::index", 10, [[200, 500, DIM], []], [BF16, "GenericList"], [[500 * DIM, DIM, 1], []])
                launch_kernel(elementwise, gpu, 6, [ACTIVE * DIM // 512, 1, 1], [128, 1, 1])
            elif spelling == "consumer":
                op("aten::index", 10, [[ROWS, DIM], []], [BF16, "GenericList"], [[DIM, 1], []])
                launch_kernel("void my_paged_gather_kernel<c10::BFloat16>(void*, void const*, long const*)", gpu, 4,
                              [32, 1, 1], [256, 1, 1])
            elif spelling == "index_select":
                op("aten::index_select", 12, [[ROWS, DIM], [], [ACTIVE]], [BF16, "Scalar", "long int"],
                   [[DIM, 1], [], [1]], ["", "0", ""])
                t[0] += 2
                op("aten::gather", 8, [[ROWS, DIM], [], [ACTIVE, DIM], [], [ACTIVE, DIM]],
                   [BF16, "Scalar", "long int", "Scalar", BF16], [[DIM, 1], [], [1, 0], [], [DIM, 1]],
                   ["", "0", "", "False", ""])
                launch_kernel(vgather, gpu, 4, [ACTIVE, 1, 1], [96, 1, 1])
            gpu += 6
            t[0] += 20
            if spelling != "index_2d":
                op("aten::view", 2, [[ACTIVE, DIM], []], [BF16, "ScalarList"], [[DIM, 1], []], ["", "[8, 512, 576]"])
                t[0] += 3
            op("aten::transpose", 2, [[8, 512, DIM], [], []], [BF16, "Scalar", "Scalar"], [[512 * DIM, DIM, 1], [], []],
               ["", "1", "2"])
            t[0] += 3
            op("aten::bmm", 10, [[8, 1, DIM], [8, DIM, 512]], [BF16, BF16], [[DIM, DIM, 1], [512 * DIM, 1, DIM]])
            launch_kernel(gemm, gpu, 8, [8, 1, 1], [128, 1, 1])
            gpu += 10
            t[0] += 20
        t[0] = max(t[0], gpu) + 5
        gpu = t[0] + 2
        ann["dur"] = t[0] - step_start
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "totalGlobalMem": 150109880320, "computeMajor": 9,
                                  "computeMinor": 0, "numSms": 132}],
            "traceEvents": ev}


for spelling in sys.argv[1:] or ["index_noshape", "index_2d", "consumer", "index_select"]:
    with open(f"gather_spelling_{spelling}.json", "w") as f:
        json.dump(make(spelling), f, indent=None, separators=(",", ":"))
        f.write("\n")
