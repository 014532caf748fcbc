#!/usr/bin/env python3
"""Writes the two multi-GPU Kineto fixtures (times in us, as Kineto writes them).

format_processes_per_gpu.json: two processes merged into one file, each on its
own GPU (pid 4100 drives GPU 0, pid 4200 GPU 1), both numbering correlation and
External ids from 1, process 4200 starting 100 us later. Three ProfilerStep#
annotations each. Per step, process
4100 keeps GPU 0 busy (8 x 40 us back to back, 20 us between steps: 94% busy);
process 4200 launches 8 x 10 us kernels 40 us apart (GPU 1 busy 80 of 320 us).

format_pipeline_two_gpus.json: one process (pid 4300) driving GPUs 0 and 1
one after the other, as Hugging Face device_map="auto" does: per step an
embedding and 3 layers (norm, GEMM, activation) on GPU 0, a peer copy of the
activations to GPU 1, 3 layers, a final norm, the lm_head GEMM and an argmax on
GPU 1, then a device-to-host copy of the token and 60 us of host work. Four
ProfilerStep# annotations. Each GPU works about 45% of the step and waits for
the other the rest: any-GPU busy is 89% of the step."""
import json

GEMM = "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT"
NORM = "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int, int)"
ACT = "void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, true>(c10::BFloat16*, int)"
EMBED = "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(long)"
LM_HEAD = "nvjet_sm90_tst_256x128_64x4_2x1_v_bz_TNT"
ARGMAX = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::ArgMaxOps<float>, unsigned int, long, 4>)"


def device_properties(ids):
    return [{"id": i, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912, "computeMajor": 9,
             "computeMinor": 0, "numSms": 132} for i in ids]


class Process:
    """One CPU thread launching work; the GPUs run it in order per stream."""

    def __init__(self, pid, events):
        self.pid, self.ev, self.corr, self.t = pid, events, 0, 0.0

    def cpu(self, cat, name, ts, dur, args=None):
        self.ev.append({"ph": "X", "cat": cat, "name": name, "pid": self.pid, "tid": self.pid, "ts": round(ts, 3),
                        "dur": round(dur, 3), "args": args or {}})

    def launch(self, cat, name, gpu_ts, dur, device, op="aten::mm", extra=None):
        """Launches at the CPU clock; returns the GPU end time."""
        self.corr += 1
        self.cpu("cpu_op", op, self.t, 6, {"External id": self.corr})
        api = {"kernel": "cudaLaunchKernel", "gpu_memcpy": "cudaMemcpyAsync"}[cat]
        self.cpu("cuda_runtime", api, self.t + 1, 4, {"External id": self.corr, "correlation": self.corr})
        gpu_ts = max(gpu_ts, self.t + 5)
        args = {"External id": self.corr, "device": device, "stream": 7, "correlation": self.corr}
        args.update(extra or {})
        self.ev.append({"ph": "X", "cat": cat, "name": name, "pid": device, "tid": "stream 7", "ts": round(gpu_ts, 3),
                        "dur": dur, "args": args})
        self.t += 8
        return gpu_ts + dur


def write(path, events, devices):
    with open(path, "w") as f:
        json.dump({"schemaVersion": 1, "deviceProperties": device_properties(devices), "traceEvents": events}, f,
                  indent=0)
        f.write("\n")


def processes_per_gpu():
    ev = []
    for pid, device, dur, spacing, begin in ((4100, 0, 40, 40, 1000.0), (4200, 1, 10, 40, 1100.0)):
        p = Process(pid, ev)
        p.t = begin
        gpu = begin + 10
        for step in range(3):
            start = p.t
            for _ in range(8):
                end = p.launch("kernel", GEMM, gpu, dur, device)
                gpu += spacing
                p.t = max(p.t, end - 30)  # launches run ahead of the GPU by a little
            gpu = end + 20 if dur == spacing else gpu
            p.t = max(p.t, end)
            p.cpu("user_annotation", "ProfilerStep#%d" % (step + 1), start, p.t - start)
    write("format_processes_per_gpu.json", ev, [0, 1])


def pipeline_two_gpus():
    ev = []
    p = Process(4300, ev)
    p.t = 1000.0
    free = {0: 1010.0, 1: 1010.0}

    def run(device, name, dur, op="aten::mm", after=0.0, cat="kernel", extra=None):
        free[device] = p.launch(cat, name, max(free[device], after), dur, device, op, extra)
        return free[device]

    for step in range(4):
        start = p.t
        run(0, EMBED, 8, "aten::embedding")
        for _ in range(3):
            run(0, NORM, 10, "_C::rms_norm")
            run(0, GEMM, 60, "aten::mm")
            run(0, ACT, 10, "_C::silu_and_mul")
        copied = run(0, "Memcpy PtoP (Device -> Device)", 10, "aten::to", cat="gpu_memcpy",
                     extra={"bytes": 65536})
        run(1, NORM, 10, "_C::rms_norm", after=copied)
        for layer in range(3):
            if layer:
                run(1, NORM, 10, "_C::rms_norm")
            run(1, GEMM, 60, "aten::mm")
            run(1, ACT, 10, "_C::silu_and_mul")
        run(1, NORM, 10, "_C::rms_norm")
        run(1, LM_HEAD, 24, "aten::mm")
        token = run(1, ARGMAX, 4, "aten::argmax")
        token = run(1, "Memcpy DtoH (Device -> Pageable)", 2, "aten::item", cat="gpu_memcpy", extra={"bytes": 8})
        p.cpu("cuda_runtime", "cudaStreamSynchronize", p.t, token - p.t, {})
        p.t = token + 60  # sampling and stopping checks on the host
        p.cpu("user_annotation", "ProfilerStep#%d" % (step + 1), start, p.t - start)
    write("format_pipeline_two_gpus.json", ev, [0, 1])


if __name__ == "__main__":
    processes_per_gpu()
    pipeline_two_gpus()
