#!/usr/bin/env python3
"""A process that takes CUPTI for itself (cuptiSubscribe) before its first CUDA call,
then does a little CUDA work through the driver API: under `cuprobe record` the
injected library finds CUPTI held and must say so (run file notices, stderr),
while the command still runs. Prints one line: what cuptiSubscribe returned."""
import ctypes, glob, os, sys

candidates = glob.glob("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so*") + glob.glob("/usr/local/cuda/lib64/libcupti.so*")
candidates += glob.glob(os.path.join(sys.prefix, "lib/python3*/site-packages/nvidia/cu*/lib/libcupti.so*"))
cupti = ctypes.CDLL(sorted(candidates)[0])
CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p)
on_callback = CALLBACK(lambda *_: None)
handle = ctypes.c_void_p()
result = cupti.cuptiSubscribe(ctypes.byref(handle), on_callback, None)
print(f"cuptiSubscribe before any CUDA call returned {result} (0 = this process holds CUPTI)", flush=True)
cuda = ctypes.CDLL("libcuda.so.1")
ctx, dev, ptr = ctypes.c_void_p(), ctypes.c_int(), ctypes.c_uint64()
for call, args in (("cuInit", (0,)), ("cuDeviceGet", (ctypes.byref(dev), 0)), ("cuCtxCreate_v2", (ctypes.byref(ctx), 0, dev)),
                   ("cuMemAlloc_v2", (ctypes.byref(ptr), 1 << 20)), ("cuMemsetD8_v2", (ptr, 0, 1 << 20)),
                   ("cuCtxSynchronize", ())):
    rc = getattr(cuda, call)(*args)
    if rc != 0:
        sys.exit(f"{call} failed: {rc}")
print("CUDA work done", flush=True)
