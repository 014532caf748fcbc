#!/usr/bin/env python3
"""Writes the Nsight Systems export fixtures (tests/data/nsys_*.sql).

There is no nsys on the machines cuprobe is developed on, so these are not
exports of real recordings: they are built from the documented export schema
(Nsight Systems user guide, "SQLite Export Schema Reference": StringIds,
CUPTI_ACTIVITY_KIND_KERNEL/_MEMCPY/_MEMSET/_RUNTIME, NVTX_EVENTS,
TARGET_INFO_GPU, TARGET_INFO_CUDA_DEVICE, ENUM_CUDA_MEMCPY_OPER,
META_DATA_EXPORT), with the tables' columns in the documented order. The tests
load each .sql into a fresh SQLite file. Run `python3 tests/data/make_nsys_fixtures.py`
to write them again; the output is deterministic.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

SCHEMA = {
    "StringIds": "id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL",
    "META_DATA_EXPORT": "name TEXT NOT NULL, value TEXT",
    "ENUM_CUDA_MEMCPY_OPER": "id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL",
    "TARGET_INFO_GPU": (
        "id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, busLocation TEXT NOT NULL, isDiscrete INTEGER NOT NULL, "
        "l2CacheSize INTEGER NOT NULL, totalMemory INTEGER NOT NULL, memoryBandwidth INTEGER NOT NULL, "
        "clockRate INTEGER NOT NULL, smCount INTEGER NOT NULL, pwGpuId INTEGER NOT NULL, uuid TEXT NOT NULL, "
        "luid INTEGER, chipName TEXT NOT NULL, cuDevice INTEGER NOT NULL, ctxId INTEGER NOT NULL, "
        "computeMajor INTEGER NOT NULL, computeMinor INTEGER NOT NULL"),
    "TARGET_INFO_CUDA_DEVICE": (
        "gpuId INTEGER NOT NULL, cudaId INTEGER NOT NULL, pid INTEGER NOT NULL, uuid TEXT NOT NULL, "
        "numMultiprocessors INTEGER NOT NULL"),
    "CUPTI_ACTIVITY_KIND_KERNEL": (
        "start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
        "streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, "
        "shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, "
        "registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, "
        "blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, "
        "staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, "
        "localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, "
        "sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER, graphId INTEGER"),
    "CUPTI_ACTIVITY_KIND_MEMCPY": (
        "start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
        "streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, "
        "copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, "
        "srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER"),
    "CUPTI_ACTIVITY_KIND_MEMSET": (
        "start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
        "streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, "
        "bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER"),
    "CUPTI_ACTIVITY_KIND_RUNTIME": (
        "start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, "
        "correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER"),
    "NVTX_EVENTS": (
        "start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, "
        "color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, "
        "uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, "
        "floatValue REAL, jsonTextId INTEGER, jsonText TEXT"),
}

COPY_KINDS = [(0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"), (1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"),
              (2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"), (3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"),
              (4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"), (5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"),
              (6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"), (7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"),
              (8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"), (9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"),
              (10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer")]

GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
CAST = ("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
        "::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::Float8_e4m3fn)#1}, "
        "at::detail::Array<char*, 2>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, "
        "at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, "
        "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}"
        "::operator()() const::{lambda(c10::Float8_e4m3fn)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, "
        "unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, "
        "at::native::memory::StoreWithCast<1>)")
ATTN = "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t>, false>(Flash_fwd_params)"
NCCL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"


def short(name):
    n = name[5:] if name.startswith("void ") else name
    return n.split("<")[0].split("(")[0]


class Export:
    def __init__(self, omit=()):
        self.omit = set(omit)  # "TABLE" or "TABLE.column": left out, as older nsys versions do
        self.strings = {}
        self.rows = {t: [] for t in SCHEMA}
        self.string("")  # id 0

    def string(self, s):
        if s not in self.strings:
            self.strings[s] = len(self.strings)
        return self.strings[s]

    def row(self, table, **values):
        self.rows[table].append(values)

    def sql(self, comment):
        out = ["-- " + line for line in comment.strip().splitlines()]
        out.append("-- Written by tests/data/make_nsys_fixtures.py from the documented nsys export schema.")
        out.append("BEGIN;")
        self.rows["StringIds"] = [dict(id=i, value=s) for s, i in self.strings.items()]
        for table, columns in SCHEMA.items():
            if table in self.omit:
                continue
            kept = [c for c in columns.split(", ") if table + "." + c.split()[0] not in self.omit]
            names = [c.split()[0] for c in kept]
            out.append("CREATE TABLE %s (%s);" % (table, ", ".join(kept)))
            for r in self.rows[table]:
                out.append("INSERT INTO %s (%s) VALUES (%s);" % (
                    table, ", ".join(n for n in names if n in r), ", ".join(lit(r[n]) for n in names if n in r)))
        out.append("COMMIT;")
        return "\n".join(out) + "\n"


def lit(v):
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return str(v)


def global_tid(pid, tid):
    return (pid << 24) | tid


def gpu(e, gid, name, sms, mem):
    e.row("TARGET_INFO_GPU", id=gid, name=name, busLocation="0000:%02x:00.0" % (0x18 + gid), isDiscrete=1,
          l2CacheSize=52428800, totalMemory=mem, memoryBandwidth=4800000000000, clockRate=1980000000, smCount=sms,
          pwGpuId=gid, uuid="GPU-%08x" % (0xabc0 + gid), luid=None, chipName="GH100", cuDevice=gid, ctxId=1,
          computeMajor=9, computeMinor=0)


class Process:
    """Records one process's calls and what they ran, on one CUDA device."""

    def __init__(self, e, pid, device, correlation=100, kernel_table="CUPTI_ACTIVITY_KIND_KERNEL"):
        self.e, self.pid, self.tid, self.device = e, pid, pid + 1, device
        self.correlation = correlation
        self.kernel_table = kernel_table

    def call(self, name, start, dur):
        self.correlation += 1
        self.e.row("CUPTI_ACTIVITY_KIND_RUNTIME", start=start, end=start + dur, eventClass=1,
                   globalTid=global_tid(self.pid, self.tid), correlationId=self.correlation,
                   nameId=self.e.string(name), returnValue=0, callchainId=None)
        return self.correlation

    def common(self, start, dur, corr, stream=7):
        return dict(start=start, end=start + dur, deviceId=self.device, contextId=1, streamId=stream,
                    correlationId=corr, globalPid=global_tid(self.pid, 0))

    def kernel(self, t, name, dur, grid=(132, 1, 1), block=(256, 1, 1), lag=3000):
        corr = self.call("cudaLaunchKernel_v7000", t, 2000)
        self.e.row(self.kernel_table, **self.common(t + lag, dur, corr), demangledName=self.e.string(name),
                   shortName=self.e.string(short(name)), mangledName=None, launchType=0, cacheConfig=0,
                   registersPerThread=96, gridX=grid[0], gridY=grid[1], gridZ=grid[2], blockX=block[0],
                   blockY=block[1], blockZ=block[2], staticSharedMemory=0, dynamicSharedMemory=49152,
                   localMemoryPerThread=0, localMemoryTotal=0, gridId=corr, sharedMemoryExecuted=65536,
                   graphNodeId=None, sharedMemoryLimitConfig=0, graphId=None)
        return t + lag + dur

    def memcpy(self, t, kind, nbytes, dur):
        corr = self.call("cudaMemcpyAsync_v3020", t, 1500)
        self.e.row("CUPTI_ACTIVITY_KIND_MEMCPY", **self.common(t + 2000, dur, corr), bytes=nbytes, copyKind=kind,
                   deprecatedSrcId=None, srcKind=1, dstKind=0, srcDeviceId=None, srcContextId=None,
                   dstDeviceId=None, dstContextId=None, migrationCause=None, graphNodeId=None)
        return t + 2000 + dur

    def memset(self, t, nbytes, dur):
        corr = self.call("cudaMemsetAsync_v3020", t, 1000)
        self.e.row("CUPTI_ACTIVITY_KIND_MEMSET", **self.common(t + 1500, dur, corr), value=0, bytes=nbytes,
                   graphNodeId=None, memKind=1)
        return t + 1500 + dur

    def nvtx(self, start, end, text=None, text_id=None, event_type=59):
        self.e.row("NVTX_EVENTS", start=start, end=end, eventType=event_type, rangeId=None, category=None,
                   color=None, text=text, globalTid=global_tid(self.pid, self.tid), endGlobalTid=None,
                   textId=text_id, domainId=0)


def decode_steps(proc, t, steps, step_name, cast=True, nccl=False):
    """vLLM-like decode: each step an NVTX range around its launches."""
    for step in range(steps):
        start = t
        t = proc.kernel(t, GEMM, 40000)
        if cast:
            t = proc.kernel(t, CAST, 90000, grid=(4096, 1, 1), block=(128, 1, 1))
        t = proc.kernel(t, ATTN, 25000, grid=(8, 32, 4), block=(128, 1, 1))
        if nccl:
            t = proc.kernel(t, NCCL, 15000, grid=(16, 1, 1), block=(512, 1, 1))
        t = proc.memset(t, 4096, 1200)
        t = proc.memcpy(t, 2, 16384, 3000)  # DtoH: the sampled tokens
        proc.call("cudaStreamSynchronize_v3020", t, 2000)
        t += 2500
        proc.nvtx(start, t, text=step_name(step))
        t += 20000  # host time between steps
    return t


def decode_small():
    e = Export()
    e.row("META_DATA_EXPORT", name="EXPORT_PRODUCT_VERSION", value="2025.3.1.90")
    e.row("META_DATA_EXPORT", name="EXPORT_SCHEMA_VERSION", value="3.18.0")
    for k in COPY_KINDS:
        e.row("ENUM_CUDA_MEMCPY_OPER", id=k[0], name=k[1], label=k[2])
    gpu(e, 0, "NVIDIA H200", 132, 150109323264)
    e.row("TARGET_INFO_CUDA_DEVICE", gpuId=0, cudaId=0, pid=4242, uuid="GPU-0000abc0", numMultiprocessors=132)
    p = Process(e, 4242, 0)
    t = p.memcpy(1_000_000, 1, 1 << 20, 80000)  # weights HtoD before the steps
    t = decode_steps(p, t + 50000, 6, lambda s: "execute_model")
    p.nvtx(500_000, None, text="generate")  # never closed
    p.nvtx(900_000, None, text="marker", event_type=34)  # a mark, not a range
    reg = e.string("sampler")
    p.nvtx(t, t + 10000, text_id=reg)  # a registered string
    return e.sql("""
One process (pid 4242) decoding on one H200: 6 steps, each an NVTX range
"execute_model" around a bf16 GEMM, an fp8->bf16 cast (direct_copy_kernel_cuda),
split-KV attention, a memset and a DtoH copy of 16 KiB, then a stream sync.
Before them a 1 MiB HtoD copy; also an unclosed NVTX range, an NVTX mark and a
range named by a registered string (textId).""")


def tp2_processes():
    e = Export()
    for k in COPY_KINDS:
        e.row("ENUM_CUDA_MEMCPY_OPER", id=k[0], name=k[1], label=k[2])
    gpu(e, 0, "NVIDIA H200", 132, 150109323264)
    gpu(e, 1, "NVIDIA H100 80GB HBM3", 132, 85520809984)
    # Each worker sees its GPU as CUDA device 0 (CUDA_VISIBLE_DEVICES); correlation ids repeat across processes.
    e.row("TARGET_INFO_CUDA_DEVICE", gpuId=0, cudaId=0, pid=5001, uuid="GPU-0000abc0", numMultiprocessors=132)
    e.row("TARGET_INFO_CUDA_DEVICE", gpuId=1, cudaId=0, pid=5002, uuid="GPU-0000abc1", numMultiprocessors=132)
    server = Process(e, 5000, 0)
    server.nvtx(0, 9_000_000, text="api_server_request")
    for pid, steps in ((5001, 3), (5002, 3)):
        p = Process(e, pid, 0)
        decode_steps(p, 1_000_000, steps, lambda s: "execute_model", cast=(pid == 5001), nccl=True)
    return e.sql("""
A tensor-parallel pair of worker processes (pids 5001, 5002), each seeing its
own GPU as CUDA device 0, with correlation ids repeating across them, and an
API-server process (5000) that has only an NVTX range. Rank 0's steps include
the fp8 cast; rank 1's do not.""")


def old_schema():
    omit = {"ENUM_CUDA_MEMCPY_OPER", "TARGET_INFO_CUDA_DEVICE", "META_DATA_EXPORT",
            "CUPTI_ACTIVITY_KIND_KERNEL.graphId", "CUPTI_ACTIVITY_KIND_KERNEL.demangledName",
            "CUPTI_ACTIVITY_KIND_KERNEL.globalPid", "CUPTI_ACTIVITY_KIND_MEMCPY.globalPid",
            "CUPTI_ACTIVITY_KIND_MEMSET.globalPid"}
    e = Export(omit)
    gpu(e, 0, "NVIDIA A100-SXM4-80GB", 108, 85899345920)
    p = Process(e, 777, 0)
    t = p.memcpy(1000, 8, 1 << 16, 5000)  # copyKind 8 = DtoD, read as a CUPTI value
    decode_steps(p, t, 3, lambda s: "step[%d]" % s, cast=False)
    return e.sql("""
An export of an older layout: no ENUM_CUDA_MEMCPY_OPER (copyKind read as the
CUPTI value), no TARGET_INFO_CUDA_DEVICE, kernels named by shortName only, no
globalPid or graphId columns. Three steps named step[N].""")


def main():
    for name, make in (("nsys_decode_small.sql", decode_small), ("nsys_tp2_processes.sql", tp2_processes),
                       ("nsys_old_schema.sql", old_schema)):
        with open(os.path.join(HERE, name), "w") as f:
            f.write(make())


if __name__ == "__main__":
    main()
