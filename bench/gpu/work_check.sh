#!/usr/bin/env bash
# On a GPU host: bytes and FLOPs per kernel from a torch.profiler trace with
# record_shapes=True (bench/gpu/work_shapes.py: a cast of known size, a bf16
# copy, GEMMs of known shape). Checks that `cuprobe analyze --json` gives the
# exact bytes/FLOPs per call and that achieved_tbps = bytes / kernel time
# within 2%, both from the trace's kernel times and from CUDA events around
# the same cast and copy. Usage: BINDIR OUTDIR (BINDIR holds cuprobe).
set -euo pipefail
bin="$1"; out="$2"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
python3 "$here/work_shapes.py" "$out/work_trace.json" "$out/expect.json"
"$bin/cuprobe" analyze "$out/work_trace.json" --json >"$out/analyze.json"
"$bin/cuprobe" analyze "$out/work_trace.json" >"$out/analyze.txt"
python3 - "$out/analyze.json" "$out/expect.json" "$out/work_trace.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); e = json.load(open(sys.argv[2])); trace = json.load(open(sys.argv[3]))
rank = r["ranks"][0]
print("device:", rank["device"], "| peaks:", (rank.get("peaks") or {}).get("name"))
# Kernel durations straight from the trace, per name (the independent reference for bandwidth).
dur = {}
for ev in trace["traceEvents"]:
    if ev.get("cat") == "kernel":
        dur.setdefault(ev["name"], []).append(ev["dur"])
failures = []
def check(label, got, want, tol=0.0):
    ok = abs(got - want) <= tol * abs(want) + 1e-9
    print(f"{'PASS' if ok else 'FAIL'} {label}: got {got:.6g} want {want:.6g}")
    if not ok: failures.append(label)
rows = [k for k in rank["kernels"] if k.get("bytes") is not None]
def per_call(k, key): return k[key] / k["work_calls"]
cast = [k for k in rows if abs(per_call(k, "bytes") - e["cast_bytes_per_call"]) < 1]
check("a kernel with the cast's bytes per call (fp8 read + bf16 written)", len(cast), 1)
copies = [k for k in rows if abs(per_call(k, "bytes") - e["copy_bytes_per_call"]) < 1]
check("an activity with the bf16 copy's bytes per call (a kernel, or a DtoD memcpy counted read + write)", len(copies), 1)
# Independently of the trace: CUDA events around 20 back-to-back calls (work_shapes.py).
for label, found, key in (("cast", cast, "cast_event_tbps"), ("bf16 copy", copies, "copy_event_tbps")):
    if found and key in e:
        check(f"{label} bandwidth vs CUDA events", found[0]["achieved_tbps"], e[key], 0.02)
gemm_flops = sorted(e["gemm_flops_per_call"].values())
got_flops = sorted(round(per_call(k, "flops")) for k in rows if k.get("flops"))
for want in gemm_flops:
    # A GEMM split over kernels (split-K + reduce) shares its FLOPs by time: the sum over its kernels is exact.
    print("GEMM", want, "found whole" if want in got_flops else "not one kernel (split?)")
total_flops = sum(k["flops"] for k in rows if k.get("flops"))
check("GEMM FLOPs in total", total_flops, e["calls"] * sum(gemm_flops))
for k in rows:
    times = dur.get(k["name"], [])
    if not times or k["work_calls"] != len(times): continue
    tbps = k["bytes"] / (sum(times) * 1e-6) / 1e12
    check(f"bandwidth of {k['name'][:60]}", k["achieved_tbps"], tbps, 0.02)
    print(f"     {k['achieved_tbps']:.3f} TB/s, peak share {k.get('peak_share')}, bound {k.get('bound')}")
for f in r["findings"]:
    print("finding:", f["id"], "|", f["title"][:160])
    print("   what if:", f["what_if"])
print("RESULT:", "FAIL " + ", ".join(failures) if failures else "PASS")
sys.exit(1 if failures else 0)
PY
