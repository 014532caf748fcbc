#!/usr/bin/env python3
"""The peers' first tables, recomputed from Kineto traces by hand, beside `cuprobe analyze --json`.

Usage: peer_tables.py CUPROBE [--planted-steps] TRACE [TRACE ...]     (one trace per rank, .json or .json.gz)

--planted-steps: the traces' `decode_step` annotations renamed ProfilerStep#1..#N first (in a temporary
folder), so that HTA's default window leaves out the last step (and the check fails if it cuts nothing).

For each figure two numbers are computed from the trace JSON:
  peer:  the peer's own algorithm as its source has it (Holistic Trace Analysis:
         hta/analyzers/breakdown_analysis.py, cuda_kernel_analysis.py, trace_counters.py,
         communication_analysis.py, hta/utils/utils.py's kernel types;
         nsys stats: cuda_gpu_kern_sum, cuda_api_sum, cuda_gpu_mem_*_sum), including
         HTA's rounding of Kineto's fractional microseconds to whole ones;
  same:  that algorithm with the deviations docs/analyze-tables.md states for cuprobe
         (nanoseconds, population std, the documented launch delay).
Idle time, launch delays, queue length and the communication overlap cover HTA's default window (include_last_profiler_step=False:
hta/common/trace.py _filter_irrelevant_gpu_kernels), as `cuprobe analyze` does by default.
cuprobe must equal `same` (relative 1e-6, 1 ns): the exit code is 1 when it does not.
The table printed (peer | same | cuprobe) is what docs/validation.md quotes.
HTA and pandas are not needed (and not installable here): the algorithms are a few lines each.
"""
import collections
import decimal
import gzip
import json
import math
import os
import re
import subprocess
import sys
import tempfile

D = decimal.Decimal


def ns(us_text):
    """Kineto's microseconds (a Decimal) as integer ns, rounded half up like cuprobe's reader."""
    return int((us_text * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f, parse_float=D)["traceEvents"]


GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver"}


def events(trace):
    gpu, runtime, annotations, gpu_annotations = [], [], [], []
    for e in trace:
        cat = e.get("cat")
        if e.get("ph") != "X" or "dur" not in e:
            continue
        args = e.get("args") or {}
        ts = D(e["ts"])
        dur = D(e["dur"])
        rec = {"name": e["name"], "ts_us": ts, "dur_us": dur, "ts": ns(ts), "end": ns(ts) + ns(dur),
               "corr": args.get("correlation", -1), "pid": e.get("pid"), "tid": e.get("tid"), "args": args}
        if cat in GPU_CATS:
            rec["stream"] = (args.get("device", -1), args.get("stream", -1))
            rec["cat"] = cat
            if cat != "kernel":  # cuprobe's names for copies and memsets, whatever Kineto spelled
                rec["name"] = "Memset" if cat == "gpu_memset" else "Memcpy " + copy_kind(rec)
            gpu.append(rec)
        elif cat in RUNTIME_CATS:
            runtime.append(rec)
        elif cat == "user_annotation":
            annotations.append(rec)
        elif cat == "gpu_user_annotation":
            gpu_annotations.append(rec)
    gpu.sort(key=lambda r: r["ts"])
    return gpu, runtime, annotations, gpu_annotations


def hta_window(gpu, runtime, annotations):
    """HTA's Trace._filter_irrelevant_gpu_kernels with include_last_profiler_step=False: with two or more
    ProfilerStep names, CPU events starting before the last ProfilerStep starts, and the GPU events whose
    correlation one of them carries."""
    steps = [a for a in annotations + runtime if "ProfilerStep" in a["name"]]
    if len({a["name"] for a in steps}) < 2:
        return gpu, runtime
    cut = max(a["ts"] for a in steps)
    runtime = [r for r in runtime if r["ts"] < cut]
    kept = {r["corr"] for r in runtime if r["corr"] != -1}
    return [g for g in gpu if g["corr"] in kept], runtime


def hta_round(r):
    """HTA's parser: ts = ceil(ts), end = floor(ts + dur), in microseconds."""
    return math.ceil(r["ts_us"]), math.floor(r["ts_us"] + r["dur_us"])


# ---- idle time by cause (HTA get_idle_time_breakdown, consecutive_kernel_delay = 30) ----
def idle(gpu, runtime, hta):
    launch = {}
    for r in runtime:
        if r["corr"] != -1:
            launch.setdefault(r["corr"], r)
    out = collections.defaultdict(lambda: [0, 0, 0])
    by_stream = collections.defaultdict(list)
    for g in gpu:
        by_stream[g["stream"]].append(g)
    for key, items in by_stream.items():
        if hta:  # rows by ts, gap to the previous row's end, negative gaps summed as HTA sums them
            rows = sorted((hta_round(g) + (g,) for g in items), key=lambda t: t[0])
            prev_end = None
            for ts, end, g in rows:
                if prev_end is not None:
                    gap = ts - prev_end
                    call = launch.get(g["corr"])
                    host = call is not None and math.ceil(call["ts_us"]) > prev_end
                    cause = 0 if host else 1 if gap < 30 else 2
                    out[key][cause] += gap / 1e3  # us -> ms
                prev_end = end
        else:  # cuprobe: ns, the gap to the latest end so far, positive gaps only
            last_end = None
            for g in items:
                if last_end is not None and g["ts"] > last_end:
                    gap = g["ts"] - last_end
                    call = launch.get(g["corr"])
                    host = call is not None and call["ts"] > last_end
                    cause = 0 if host else 1 if gap < 30_000 else 2
                    out[key][cause] += gap / 1e6
                last_end = g["end"] if last_end is None else max(last_end, g["end"])
    return out


# ---- kernel duration spread (nsys cuda_gpu_kern_sum; HTA get_gpu_kernel_breakdown) ----
def percentile(values, q):
    v = sorted(values)
    pos = q / 100 * (len(v) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def kernel_spread(gpu, sample_std):
    by_name = collections.defaultdict(list)
    for g in gpu:
        by_name[g["name"]].append((g["end"] - g["ts"]) / 1e3)
    out = {}
    for name, d in by_name.items():
        mean = sum(d) / len(d)
        dof = len(d) - 1 if sample_std else len(d)
        std = math.sqrt(sum((x - mean) ** 2 for x in d) / dof) if dof > 0 else 0.0
        out[name] = {"min_us": min(d), "median_us": percentile(d, 50), "p90_us": percentile(d, 90),
                     "max_us": max(d), "std_us": std}
    return out


# ---- launch statistics (HTA get_cuda_kernel_launch_stats) ----
def launches(gpu, runtime, hta):
    calls = {}
    for r in runtime:
        if r["corr"] != -1:
            calls.setdefault(r["corr"], r)
    delays = []
    cpu = []
    for g in gpu:
        c = calls.get(g["corr"])
        if c is None:
            continue
        if hta:
            if c["name"] not in ("cudaLaunchKernel", "cudaMemcpyAsync", "cudaMemsetAsync"):
                continue
            ts_c, end_c = hta_round(c)
            ts_g, _ = hta_round(g)
            # the code's formula: ts_gpu - ts_cpu + dur_cpu (its docs say GPU start - CPU end)
            delays.append(ts_g - ts_c + (end_c - ts_c))
            cpu.append(end_c - ts_c)
        else:
            if "GraphLaunch" in c["name"]:
                continue
            delays.append((g["ts"] - c["end"]) / 1e3)
            cpu.append((c["end"] - c["ts"]) / 1e3)
    if not delays:
        return None
    return {"launches": len(delays), "cpu_median_us": percentile(cpu, 50), "delay_median_us": percentile(delays, 50),
            "delay_p90_us": percentile(delays, 90), "delay_max_us": max(delays),
            "cpu_outliers": sum(c > 50 for c in cpu), "delay_outliers": sum(d > 100 for d in delays)}


# ---- queue length (HTA get_queue_length_summary) ----
def queues(gpu, runtime, hta):
    calls = {}
    for r in runtime:
        if r["corr"] != -1:
            calls.setdefault(r["corr"], r)
    per_stream = collections.defaultdict(list)
    for g in gpu:
        c = calls.get(g["corr"])
        if c is None:
            continue
        if hta:
            per_stream[g["stream"]] += [(hta_round(c)[0], 1), (hta_round(g)[0], -1)]
        else:
            per_stream[g["stream"]] += [(c["ts"], 1), (g["ts"], -1)]
    out = {}
    for key, ev in per_stream.items():
        ev.sort(key=lambda t: (t[0], t[1]))  # at equal times the start (-1) first
        q, series = 0, []
        for t, d in ev:
            q += d
            series.append((t, q))
        # describe() over the change points: HTA's mean (per event); the time-weighted one beside it
        area = sum(series[i][1] * (series[i + 1][0] - series[i][0]) for i in range(len(series) - 1))
        span = series[-1][0] - series[0][0]
        out[key] = {"mean_per_event": sum(v for _, v in series) / len(series),
                    "mean_time_weighted": area / span if span > 0 else 0.0, "max": max(v for _, v in series)}
    return out


# ---- annotations: GPU span per range (Kineto's gpu_user_annotation, HTA's user annotation breakdown) ----
def annotation_spans(gpu_annotations):
    out = collections.defaultdict(float)
    for a in gpu_annotations:
        out[a["name"]] += (a["end"] - a["ts"]) / 1e6
    return out


# ---- nsys cuda_api_sum and cuda_gpu_mem_*_sum ----
def api(runtime):
    by_name = collections.defaultdict(list)
    for r in runtime:
        by_name[r["name"]].append((r["end"] - r["ts"]) / 1e3)
    return {n: {"calls": len(d), "total_ms": sum(d) / 1e3, "median_us": percentile(d, 50), "max_us": max(d)}
            for n, d in by_name.items()}


def copy_kind(g):
    if g["cat"] == "gpu_memset":
        return "memset"
    name = g["name"]
    for k in ("HtoD", "DtoH", "DtoD", "HtoH", "PtoP"):
        if k in name:
            return k
    return "unknown"


def copies(gpu):
    out = collections.defaultdict(lambda: {"count": 0, "bytes": 0, "time_ms": 0.0})
    for g in gpu:
        if g["cat"] == "kernel":
            continue
        row = out[copy_kind(g)]
        row["count"] += 1
        row["bytes"] += int(g["args"].get("bytes", 0))
        row["time_ms"] += (g["end"] - g["ts"]) / 1e6
    return out


# ---- communication beside computation (HTA get_comm_comp_overlap, get_gpu_kernel_breakdown's kernel types) ----
def hta_kernel_type(g):
    """hta/utils/utils.py get_kernel_type (copies and memsets are Memcpy/Memset rows: memory)."""
    name = g["name"]
    if re.match(r"^nccl.*Kernel", name):
        return "COMMUNICATION"
    if re.match(r"(^Memcpy)|(^Memset)|(^dma)", name):
        return "MEMORY"
    if not re.match(r"(^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync)", name):
        return "COMPUTATION"
    return "OTHER"


def merge_kernel_intervals(intervals):
    """HTA's merge_kernel_intervals: sorted by ts, a new group when ts > the previous ends' cummax."""
    out = []
    for ts, end in sorted(intervals):
        if out and ts <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([ts, end])
    return out


def hta_overlap(gpu, hta):
    """get_comm_comp_overlap as its code has it: merged communication (+1/-1) and computation (+2/-2) intervals,
    sorted by time, cumsum; the time the running sum is 3, over the communication time. Times in ms."""
    kinds = collections.defaultdict(list)
    for g in gpu:
        kinds[hta_kernel_type(g)].append(hta_round(g) if hta else (g["ts"], g["end"]))
    comm = merge_kernel_intervals(kinds["COMMUNICATION"])
    comp = merge_kernel_intervals(kinds["COMPUTATION"])
    status = sorted([(t, d) for a, b in comm for t, d in ((a, 1), (b, -1))] +
                    [(t, d) for a, b in comp for t, d in ((a, 2), (b, -2))], key=lambda x: x[0])
    running, both = 0, 0
    for i, (t, d) in enumerate(status):
        running += d
        if running == 3:
            both += status[i + 1][0] - t
    unit = 1e3 if hta else 1e6  # us or ns -> ms
    comm_t = sum(b - a for a, b in comm) / unit
    comp_t = sum(b - a for a, b in comp) / unit
    return {"communication_kernels": len(kinds["COMMUNICATION"]), "communication_ms": comm_t,
            "computation_ms": comp_t, "overlap_ms": both / unit,
            "comp_comm_overlap_pctg": 100 * both / unit / comm_t if comm_t else None}


def planted_steps(traces, folder):
    """Each trace with its `decode_step` annotations renamed ProfilerStep#1..#N (HTA's step names), written to folder:
    HTA's default window then leaves out what the last step launched."""
    out = []
    for i, path in enumerate(traces):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            doc = json.load(f)
        n = 0
        for e in doc["traceEvents"]:
            if e.get("cat") == "user_annotation" and e.get("name") == "decode_step":
                n += 1
                e["name"] = f"ProfilerStep#{n}"
        if n < 2:
            sys.exit(f"{path}: fewer than two decode_step annotations to rename")
        planted = os.path.join(folder, f"planted_rank{i}.json")
        with open(planted, "w") as f:
            json.dump(doc, f)
        out.append(planted)
    return out


failures = []


def check(what, same, ours, tol_abs=1e-6):
    if ours is None or same is None or abs(same - ours) > max(tol_abs, 1e-6 * abs(same)):
        failures.append(f"{what}: same-definition {same} vs cuprobe {ours}")


def fmt(v):
    return "-" if v is None else f"{v:.6g}" if isinstance(v, float) else str(v)


def row(what, peer, same, ours):
    print(f"  {what:<58} {fmt(peer):>14} {fmt(same):>14} {fmt(ours):>14}")


def main():
    args = sys.argv[1:]
    planted = "--planted-steps" in args
    args = [a for a in args if a != "--planted-steps"]
    if len(args) < 2:
        sys.exit(__doc__)
    if planted:
        with tempfile.TemporaryDirectory() as folder:
            traces = planted_steps(args[1:], folder)
            compare(args[0], traces, expect_cut=True)
            compare_diff(args[0], traces, args[1:])
    else:
        compare(args[0], args[1:], expect_cut=False)
        compare_diff(args[0], args[1:], args[1:])
    if failures:
        print("MISMATCH (cuprobe differs from the same definition):", *failures[:20], sep="\n  ")
        sys.exit(1)
    print("cuprobe equals the same-definition figures on every row checked")


def compare(cuprobe, traces, expect_cut):
    out = subprocess.run([cuprobe, "analyze", "--json", *traces], check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    for rank, trace_path in zip(report["ranks"], traces):
        all_gpu, all_runtime, annotations, gpu_annotations = events(load(trace_path))
        gpu, runtime = hta_window(all_gpu, all_runtime, annotations)
        print(f"{trace_path}  (rank {rank['rank']}; HTA's window: {len(gpu)} of {len(all_gpu)} GPU activities)")
        if expect_cut and len(gpu) == len(all_gpu):
            failures.append(f"{trace_path}: the planted ProfilerSteps cut nothing")
        if rank["hta_window"]["last_step_left_out"] != (len(gpu) < len(all_gpu)):
            failures.append(f"{trace_path}: hta_window.last_step_left_out {rank['hta_window']['last_step_left_out']}")
        print(f"  {'figure':<58} {'peer':>14} {'same def.':>14} {'cuprobe':>14}")
        ib = rank["idle_by_stream"]
        peer_idle, same_idle = idle(gpu, runtime, True), idle(gpu, runtime, False)
        for s in ib["streams"]:
            key = (s["device"], s["stream"])
            for i, cause in enumerate(("host_wait", "kernel_wait", "other")):
                row(f"idle {cause} ms, GPU {key[0]} stream {key[1]}", peer_idle[key][i], same_idle[key][i],
                    s[cause + "_ms"])
                check(f"idle {cause} {key}", same_idle[key][i], s[cause + "_ms"])
        peer_k, same_k = kernel_spread(all_gpu, True), kernel_spread(all_gpu, False)
        for k in rank["kernels"][:3]:
            for f in ("min_us", "median_us", "p90_us", "max_us", "std_us"):
                row(f"{k['name'][:40]} {f}", peer_k[k["name"]][f] if f != "p90_us" else None,
                    same_k[k["name"]][f], k[f])
            for k2 in rank["kernels"]:
                for f in ("min_us", "median_us", "p90_us", "max_us", "std_us"):
                    check(f"{k2['name']} {f}", same_k[k2["name"]][f], k2[f], 1e-9)
        ls = rank["launch_stats"]
        peer_l, same_l = launches(gpu, runtime, True), launches(gpu, runtime, False)
        if same_l:
            for f in ("launches", "cpu_median_us", "delay_median_us", "delay_p90_us", "delay_max_us", "cpu_outliers",
                      "delay_outliers"):
                row(f"launches (all) {f}", peer_l[f] if peer_l else None, same_l[f], ls["all"][f])
                check(f"launch {f}", same_l[f], ls["all"][f])
        peer_q, same_q = queues(gpu, runtime, True), queues(gpu, runtime, False)
        for q in rank["queue_length"]:
            key = (q["device"], q["stream"])
            for f in ("mean_per_event", "mean_time_weighted", "max"):
                row(f"queue {f}, GPU {key[0]} stream {key[1]}", peer_q[key][f], same_q[key][f], q[f])
                check(f"queue {f} {key}", same_q[key][f], q[f])
        spans = annotation_spans(gpu_annotations)
        for a in rank["annotations"]:
            if a["name"] in spans:
                row(f"annotation {a['name'][:30]} GPU span ms", spans[a["name"]], None, a["gpu_span_ms"])
        peer_api = api(all_runtime)
        for a in rank["api_summary"][:4]:
            for f in ("calls", "total_ms", "median_us", "max_us"):
                row(f"API {a['name'][:36]} {f}", peer_api[a["name"]][f], peer_api[a["name"]][f], a[f])
        for a in rank["api_summary"]:
            for f in ("calls", "total_ms", "median_us", "max_us"):
                check(f"API {a['name']} {f}", peer_api[a["name"]][f], a[f])
        peer_c = copies(all_gpu)
        for c in rank["copies"]:
            for f in ("count", "bytes", "time_ms"):
                row(f"copies {c['kind']} {f}", peer_c[c["kind"]][f], peer_c[c["kind"]][f], c[f])
                check(f"copies {c['kind']} {f}", peer_c[c["kind"]][f], c[f])
        peer_o, same_o, ours_o = hta_overlap(gpu, True), hta_overlap(gpu, False), rank["hta_overlap"]
        whole = hta_overlap(all_gpu, False)
        for f in ("communication_kernels", "communication_ms", "computation_ms", "overlap_ms", "comp_comm_overlap_pctg"):
            row(f"HTA comm/comp {f}", peer_o[f], same_o[f], ours_o[f])
            if same_o["communication_kernels"] or f != "comp_comm_overlap_pctg":  # null without communication
                check(f"HTA comm/comp {f}", same_o[f], ours_o[f])
        row("HTA comm/comp communication_ms, whole trace", None, whole["communication_ms"], None)
        print()


def compare_diff(cuprobe, a_traces, b_traces):
    """`cuprobe diff --json A B` and `--csv`: per rank, each side's HTA overlap equals HTA's formula over that side's
    own HTA window (A with planted ProfilerSteps: the last one left out; B the originals: the whole trace)."""
    with tempfile.TemporaryDirectory() as folder:
        out = subprocess.run([cuprobe, "diff", "--json", "--csv", folder, ",".join(a_traces), ",".join(b_traces)],
                             check=True, capture_output=True, text=True).stdout
        with open(os.path.join(folder, "hta_overlap.csv"), newline="") as f:
            csv_rows = {(r["rank"], r["side"]): r for r in __import__("csv").DictReader(f)}
    rows = json.loads(out)["hta_overlap"]
    if len(rows) != len(a_traces):
        failures.append(f"diff: {len(rows)} hta_overlap rows for {len(a_traces)} ranks")
    print("cuprobe diff A B: HTA's comm/comp overlap per side, each over its own HTA window")
    print(f"  {'figure':<58} {'peer':>14} {'same def.':>14} {'cuprobe':>14}")
    for row_, a_path, b_path in zip(rows, a_traces, b_traces):
        for side, path in (("a", a_path), ("b", b_path)):
            all_gpu, all_runtime, annotations, _ = events(load(path))
            gpu, _ = hta_window(all_gpu, all_runtime, annotations)
            peer_o, same_o, ours = hta_overlap(gpu, True), hta_overlap(gpu, False), row_[side]["hta_overlap"]
            cut = len(gpu) < len(all_gpu)
            if row_[side]["hta_window"]["last_step_left_out"] != cut:
                failures.append(f"diff {side} rank {row_['rank']}: last_step_left_out is not {cut}")
            for f in ("communication_kernels", "communication_ms", "comp_comm_overlap_pctg"):
                row(f"diff rank {row_['rank']} {side.upper()} {f}", peer_o[f], same_o[f], ours[f])
            for f in ("communication_kernels", "communication_ms", "computation_ms", "overlap_ms"):
                check(f"diff {side} rank {row_['rank']} {f}", same_o[f], ours[f])
                check(f"diff --csv {side} rank {row_['rank']} {f}", same_o[f],
                      float(csv_rows[(row_["rank"], side)][f]))
    print()


if __name__ == "__main__":
    main()
