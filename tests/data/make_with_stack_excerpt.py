#!/usr/bin/env python3
"""Cuts a window of decode steps out of a torch.profiler trace recorded with
with_stack=True (and record_shapes), for tests/data: the GPU activities whose
launch falls in the window, the runtime calls there that launch, copy or
synchronize, the operators there (arguments dropped), and the python_function
events that overlap the window (the user's frames and the library's alike, so
that a test sees both). The window: `steps` device-to-host read-backs (one per
decode step of Hugging Face generate), starting at the read-back in the middle
of the trace. Times are rebased to the window's start, to 10 ns.

usage: make_with_stack_excerpt.py IN.json[.gz|.xz] OUT.json.gz [steps]"""
import gzip
import json
import lzma
import sys

src, dst = sys.argv[1], sys.argv[2]
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
opener = gzip.open if src.endswith(".gz") else lzma.open if src.endswith(".xz") else open
with opener(src, "rt") as f:
    trace = json.load(f)
events = trace["traceEvents"]

copies_back = sorted(e["ts"] for e in events
                     if e.get("cat") == "gpu_memcpy" and "DtoH" in e.get("name", "") + str(e.get("args", {})))
middle = len(copies_back) // 2
begin, end = copies_back[middle], copies_back[min(middle + steps, len(copies_back) - 1)]

launch_ts = {}  # correlation -> launch time
for e in events:
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
        launch_ts[e["args"]["correlation"]] = e["ts"]


def wanted_call(name):
    return any(w in name for w in ("Launch", "Memcpy", "Memset", "Synchronize"))


kept = []
for e in events:
    cat = e.get("cat")
    ph = e.get("ph")
    if ph != "X":
        if ph == "M" or cat is None:
            kept.append(e)
        continue
    ts, dur = e["ts"], e.get("dur", 0)
    args = e.get("args", {})
    if cat in ("kernel", "gpu_memcpy", "gpu_memset"):
        at = launch_ts.get(args.get("correlation"), ts)
        if begin <= at < end:
            kept.append(e)
    elif cat in ("cuda_runtime", "cuda_driver"):
        if begin <= ts < end and wanted_call(e.get("name", "")):
            kept.append(e)
    elif cat == "cpu_op":
        if begin <= ts < end:
            e["args"] = {k: v for k, v in args.items() if k == "External id"}
            kept.append(e)
    elif cat == "python_function":
        if ts < end and ts + dur > begin:
            e["args"] = {}
            kept.append(e)
    elif cat in ("user_annotation", "gpu_user_annotation"):
        if begin <= ts < end:
            kept.append(e)

base = begin
for e in kept:
    if "ts" in e:
        e["ts"] = round(e["ts"] - base, 2)
    if "dur" in e:
        e["dur"] = round(e["dur"], 2)
trace["traceEvents"] = kept
if "baseTimeNanoseconds" in trace:
    trace["baseTimeNanoseconds"] += int(base * 1000)
with gzip.open(dst, "wt", compresslevel=9) as f:
    json.dump(trace, f, separators=(",", ":"))
print(f"{len(kept)} events, window {end - begin:.0f} us", file=sys.stderr)
