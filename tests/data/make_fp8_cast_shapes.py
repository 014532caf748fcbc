#!/usr/bin/env python3
"""Writes fp8_cast_shapes.json: the FP8 KV-pool cast story as torch.profiler
writes it with record_shapes=True (Input Dims / Input type / Concrete Inputs).
3 decode steps x 4 layers; each layer casts the whole FP8 pool (496000 x 576)
to bf16 (857 MB read + written, 857 us: 1.0 TB/s), gathers 4096 rows of the
bf16 copy, and runs one bf16 GEMM [8, 576] x [576, 4096] (8 us). One aten::mul
carries a malformed "Input Dims" (counted, not fatal)."""
import json

ROWS, DIM, ACTIVE = 496000, 576, 4096
ev = []
corr = [1000]
t = [1000.0]


def op(name, dur, dims, types, concrete=None, ext=None):
    e = {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": t[0], "dur": dur,
         "args": {"External id": 1, "Input Dims": dims, "Input type": types,
                  "Concrete Inputs": concrete or [""] * len(types)}}
    ev.append(e)
    return e


def launch_kernel(name, gpu_ts, gpu_dur):
    corr[0] += 1
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": t[0] + 1, "dur": 3, "args": {"correlation": corr[0]}})
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": gpu_ts, "dur": gpu_dur,
               "args": {"device": 0, "stream": 7, "correlation": corr[0], "grid": [1, 1, 1], "block": [128, 1, 1]}})


CAST = ("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
        "::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}, "
        "std::array<char*, 2ul>, 4>(int)")
GATHER = "void at::native::index_elementwise_kernel<128, 4>(long)"
GEMM = "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT"
gpu = 1000.0
for step in range(3):
    step_start = t[0]
    ann = {"ph": "X", "cat": "user_annotation", "name": "decode_step", "pid": 1, "tid": 1, "ts": step_start,
           "dur": 0, "args": {}}
    ev.append(ann)
    for layer in range(4):
        t[0] += 5
        outer = op("aten::to", 20, [[ROWS, DIM], [], [], [], [], []],
                   ["c10::Float8_e4m3fn", "Scalar", "", "", "Scalar", "Scalar"], ["", "15", "", "", "False", "False"])
        t[0] += 1
        op("aten::_to_copy", 18, [[ROWS, DIM], [], [], [], [], [], []],
           ["c10::Float8_e4m3fn", "Scalar", "", "", "", "Scalar", ""], ["", "15", "", "", "", "False", ""])
        t[0] += 1
        op("aten::copy_", 10, [[ROWS, DIM], [ROWS, DIM], []], ["c10::BFloat16", "c10::Float8_e4m3fn", "Scalar"],
           ["", "", "False"])
        launch_kernel(CAST, gpu, 857.088)
        gpu += 860
        t[0] += 30
        op("aten::index", 10, [[ROWS, DIM], [[ACTIVE]]], ["c10::BFloat16", "TensorList"], ["", ""])
        launch_kernel(GATHER, gpu, 10)
        gpu += 12
        t[0] += 20
        op("aten::mm", 10, [[8, DIM], [DIM, 4096]], ["c10::BFloat16", "c10::BFloat16"])
        launch_kernel(GEMM, gpu, 8)
        gpu += 10
        t[0] += 20
        if step == 0 and layer == 0:
            op("aten::mul", 5, "oops", ["c10::BFloat16", "c10::BFloat16"])
            t[0] += 10
    t[0] = max(t[0], gpu) + 5
    gpu = t[0] + 2
    ann["dur"] = t[0] - step_start

trace = {"schemaVersion": 1,
         "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "totalGlobalMem": 150109880320, "computeMajor": 9,
                               "computeMinor": 0, "numSms": 132}],
         "traceEvents": ev}
with open("fp8_cast_shapes.json", "w") as f:
    json.dump(trace, f, indent=None, separators=(",", ":"))
    f.write("\n")
