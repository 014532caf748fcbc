#!/usr/bin/env python3
"""Trims a Kineto trace for tests/data: keeps the GPU activities, the runtime and
driver calls (launches, copies, syncs), the metadata events, and the annotations
(user_annotation, gpu_user_annotation); drops operators (cpu_op) and the flow
events (ac2g), which the step detection and findings of a trace without
operator shapes do not read, and the arguments of the rest but those the
importer needs here (device, stream, correlation, grid, block, bytes),
and the runtime calls that neither launch, copy nor synchronize. Times are
rebased to the first event (baseTimeNanoseconds moved by as much), to 10 ns.

With --no-launches, the launch calls go too (GPU times then stand in for the
steps' CPU times): for a trace whose steps alone are the point.

usage: trim_trace.py [--no-launches] IN.json[.gz] OUT.json.gz"""
import gzip
import json
import sys

DROP = {"cpu_op", "ac2g", "python_function"}
KEEP_ARGS = {"device", "stream", "correlation", "grid", "block", "bytes"}

args = sys.argv[1:]
no_launches = "--no-launches" in args
src, dst = [a for a in args if a != "--no-launches"]
opener = gzip.open if src.endswith(".gz") else open
with opener(src, "rt") as f:
    trace = json.load(f)
def wanted_call(name):
    kept = ("Memcpy", "Memset", "Synchronize") + (() if no_launches else ("Launch",))
    return any(w in name for w in kept)


events = []
for e in trace["traceEvents"]:
    if e.get("cat") in DROP:
        continue
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and not wanted_call(e.get("name", "")):
        continue
    if e.get("ph") == "X" and isinstance(e.get("args"), dict):
        e["args"] = {k: v for k, v in e["args"].items() if k in KEEP_ARGS}
    events.append(e)
first = min(e["ts"] for e in events if isinstance(e.get("ts"), (int, float)))
for e in events:
    if isinstance(e.get("ts"), (int, float)):
        e["ts"] = round(e["ts"] - first, 2)
    if isinstance(e.get("dur"), (int, float)):
        e["dur"] = round(e["dur"], 2)
if "baseTimeNanoseconds" in trace:
    trace["baseTimeNanoseconds"] += int(first * 1000)
trace["traceEvents"] = events
with gzip.open(dst, "wt", compresslevel=9) as f:
    json.dump(trace, f, separators=(",", ":"))
