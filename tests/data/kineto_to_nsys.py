#!/usr/bin/env python3
"""Writes an Nsight Systems SQLite export holding the GPU work of one or more
real Kineto traces, one process per trace (issue 37 item 5: an nsys export of
several ranks must give the same cross-rank table as the ranks' Kineto traces).

Each trace becomes a process (its Kineto pid) on its own GPU (its kernels'
"device"): kernels, copies and memsets as CUPTI activities, the CUDA runtime
and driver calls (linked by their correlation ids), user annotations as NVTX
ranges (the steps). Operators have no place in an nsys export and are dropped,
as is what a torch trace alone carries (the NCCL kernels' process group). Times
are the traces' microseconds as integer nanoseconds, exactly (the text's
digits), plus --offset-ns (one per trace, for exports of different sessions).
The tables and columns are make_nsys_fixtures.py's (the documented schema).

  kineto_to_nsys.py --out export.sqlite [--offset-ns 0,5000000] rank0.json.gz [rank1.json.gz ...]
"""
import argparse
import decimal
import gzip
import json
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_nsys_fixtures as nsys  # noqa: E402


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f, parse_float=decimal.Decimal)


def ns(us):
    return int((decimal.Decimal(us) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def copy_kind(name):
    for label, kind in (("HtoD", 1), ("DtoH", 2), ("DtoD", 8), ("HtoH", 9), ("PtoP", 10)):
        if label in name:
            return kind
    return 0


def add_trace(e, trace, offset, gpus):
    events = [x for x in trace["traceEvents"] if x.get("ph") == "X" and "ts" in x and "dur" in x]
    pid = next(int(x["pid"]) for x in events if x.get("cat") in ("cuda_runtime", "cpu_op"))
    device = next((int(x["args"].get("device", 0)) for x in events if x.get("cat") == "kernel"), 0)
    if device not in gpus:
        nsys.gpu(e, device, "NVIDIA H200", 132, 150109323264)
        gpus.add(device)
    e.row("TARGET_INFO_CUDA_DEVICE", gpuId=device, cudaId=device, pid=pid, uuid="GPU-%08x" % (0xabc0 + device),
          numMultiprocessors=132)
    for x in events:
        cat, args = x.get("cat"), x.get("args", {})
        start, end = ns(x["ts"]) + offset, ns(x["ts"]) + ns(x["dur"]) + offset
        common = dict(start=start, end=end, deviceId=device, contextId=1, streamId=int(args.get("stream", 7)),
                      correlationId=int(args.get("correlation", 0)), globalPid=nsys.global_tid(pid, 0))
        if cat == "kernel":
            grid, block = args.get("grid", [1, 1, 1]), args.get("block", [1, 1, 1])
            e.row("CUPTI_ACTIVITY_KIND_KERNEL", **common, demangledName=e.string(x["name"]),
                  shortName=e.string(nsys.short(x["name"])), mangledName=None, launchType=0, cacheConfig=0,
                  registersPerThread=int(args.get("registers per thread", 0)), gridX=grid[0], gridY=grid[1],
                  gridZ=grid[2], blockX=block[0], blockY=block[1], blockZ=block[2],
                  staticSharedMemory=int(args.get("shared memory", 0)), dynamicSharedMemory=0,
                  localMemoryPerThread=0, localMemoryTotal=0, gridId=int(args.get("correlation", 0)),
                  sharedMemoryExecuted=None, graphNodeId=None, sharedMemoryLimitConfig=0, graphId=None)
        elif cat == "gpu_memcpy":
            e.row("CUPTI_ACTIVITY_KIND_MEMCPY", **common, bytes=int(args.get("bytes", 0)),
                  copyKind=copy_kind(x["name"]), deprecatedSrcId=None, srcKind=None, dstKind=None,
                  srcDeviceId=None, srcContextId=None, dstDeviceId=None, dstContextId=None, migrationCause=None,
                  graphNodeId=None)
        elif cat == "gpu_memset":
            e.row("CUPTI_ACTIVITY_KIND_MEMSET", **common, value=0, bytes=int(args.get("bytes", 0)),
                  graphNodeId=None, memKind=1)
        elif cat in ("cuda_runtime", "cuda_driver"):
            e.row("CUPTI_ACTIVITY_KIND_RUNTIME", start=start, end=end, eventClass=1,
                  globalTid=nsys.global_tid(pid, int(x["tid"]) & 0xFFFFFF), correlationId=int(args.get("correlation", 0)),
                  nameId=e.string(x["name"]), returnValue=0, callchainId=None)
        elif cat == "user_annotation":
            e.row("NVTX_EVENTS", start=start, end=end, eventType=59, rangeId=None, category=None, color=None,
                  text=x["name"], globalTid=nsys.global_tid(pid, int(x["tid"]) & 0xFFFFFF), endGlobalTid=None,
                  textId=None, domainId=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--offset-ns", default="")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    offsets = [int(v) for v in a.offset_ns.split(",")] if a.offset_ns else []
    offsets += [0] * (len(a.traces) - len(offsets))
    e = nsys.Export()
    for k in nsys.COPY_KINDS:
        e.row("ENUM_CUDA_MEMCPY_OPER", id=k[0], name=k[1], label=k[2])
    gpus = set()
    for path, offset in zip(a.traces, offsets):
        add_trace(e, load(path), offset, gpus)
    if os.path.exists(a.out):
        os.remove(a.out)
    db = sqlite3.connect(a.out)
    db.executescript(e.sql("Converted from Kineto traces by tests/data/kineto_to_nsys.py."))
    db.close()


if __name__ == "__main__":
    main()
