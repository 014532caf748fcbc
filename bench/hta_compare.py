#!/usr/bin/env python3
"""Side-by-side check of cuprobe's "as HTA" tables against Holistic Trace Analysis itself.

Usage: python3 bench/hta_compare.py --hta-src DIR --cuprobe BIN SET [SET ...]
  SET: one trace file, or the ranks of one job joined by commas (a.json.gz,b.json.gz).
  DIR: a directory holding HTA's `hta` package (HTA is not bundled; it needs pandas).
Run it with a Python that has pandas, numpy, yaml (and plotly, which HTA imports).

Each set is copied to a temporary directory as rank-N.json.gz (adding distributedInfo.rank
where the trace lacks it, as HTA asks) and loaded twice by TraceAnalysis(trace_dir=...): with
HTA's default include_last_profiler_step=False and with True. cuprobe runs `analyze --json` with
its default window and with `--hta-window all`. Pairs compared: cuprobe default vs HTA default,
cuprobe `all` vs HTA keep-last-step.

Tolerance: HTA rounds every event's start up and end down to whole microseconds (its parser,
for float timestamps), so each duration or gap can move by under 2 us. A sum over N gaps or
events may differ by 2 us * N; a median or maximum of per-event figures by 2 us; counts must
match exactly; queue-length means (counts, not times) within 2% (0.05 absolute), since rounding
reorders launches and starts less than 1 us apart; percentages within the ms tolerance carried over.
"""
import argparse, gzip, json, os, subprocess, sys, tempfile

HTA_LAUNCH_CALLS = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpyAsync", "cudaMemsetAsync"}


def hta_child(trace_dir, keep_last):
    """Runs inside a child process: HTA's calls on one directory; returns plain numbers (us)."""
    import pandas as pd
    from hta.trace_analysis import TraceAnalysis
    ta = TraceAnalysis(trace_dir=trace_dir, include_last_profiler_step=keep_last)
    t, ranks = ta.t, ta.t.get_ranks()
    out = {"ranks": {}}
    idle, _ = ta.get_idle_time_breakdown(ranks=ranks, visualize=False)
    temporal = ta.get_temporal_breakdown(visualize=False).set_index("rank")
    overlap = ta.get_comm_comp_overlap(visualize=False).set_index("rank")
    queues = ta.get_queue_length_summary(ranks=ranks)
    launches = ta.get_cuda_kernel_launch_stats(ranks=ranks, visualize=False)
    types, _ = ta.get_gpu_kernel_breakdown(visualize=False)
    out["kernel_types"] = {r.kernel_type: float(r.sum) for r in types.itertuples()}
    sym = t.symbol_table.get_sym_table()
    for rank in ranks:
        df = t.get_trace(rank)
        o = out["ranks"][str(rank)] = {"idle": {}, "queue": {}}
        for r in idle[idle["rank"] == rank].itertuples():
            o["idle"].setdefault(str(r.stream), {})[r.idle_category] = float(r.idle_time)
        tr = temporal.loc[rank]
        o["temporal"] = {k: float(tr[k + "(ns)"]) for k in ("idle_time", "compute_time", "kernel_time")}
        o["overlap_pctg"] = float(overlap.loc[rank, "comp_comm_overlap_pctg"])
        if queues is not None and rank in queues.index.get_level_values(0):
            for stream, q in queues.loc[rank].iterrows():
                o["queue"][str(stream)] = {"events": float(q[("queue_length", "count")]),
                                           "mean": float(q[("queue_length", "mean")]),
                                           "max": float(q[("queue_length", "max")])}
        ev = launches[rank]
        doc = ev["launch_delay"] - 2 * ev["cpu_duration"]  # HTA's documented delay, GPU start - call end
        o["launch"] = {"launches": len(ev), "cpu_median": float(ev["cpu_duration"].median()),
                       "delay_doc_median": float(doc.median()), "delay_doc_total": float(doc.sum())}
        gpu_pids = sorted(df.loc[df["stream"].gt(0), "pid"].unique())
        if len(gpu_pids) > 1:  # HTA keys streams by number only; rerun its code on each device's slice
            o["by_device"] = {str(pid): device_view(ta, rank, df, pid) for pid in gpu_pids}
        # launches HTA's launch table does not take (e.g. cuLaunchKernelEx): explains count differences
        cpu = df[df["stream"].eq(-1) & df["index_correlation"].gt(0)]
        o["launch"]["other_calls"] = int(sum(sym[n] not in HTA_LAUNCH_CALLS for n in cpu["name"]))
        # our code, not HTA's: the documented delay over every launch, on HTA's parsed (rounded) frame
        gpu = df.loc[cpu["index_correlation"]]
        call_end = (cpu["ts"] + cpu["dur"]).to_numpy()
        every = gpu["ts"].to_numpy() - call_end
        o["launch_every"] = {"launches": len(cpu), "cpu_median": float(cpu["dur"].median()),
                             "delay_median": float(pd.Series(every).median()), "delay_total": float(every.sum())}
    return out


def device_view(ta, rank, df, pid):
    """HTA's own idle and queue code, run on a copy of its Trace that holds one GPU's activities
    and the calls that launched them (HTA keys streams by number alone)."""
    from hta.trace_analysis import TraceAnalysis
    gpu = df[df["stream"].gt(0) & df["pid"].eq(pid)]
    cpu = df[df["stream"].eq(-1) & df["correlation"].isin(gpu["correlation"])]
    view = TraceAnalysis.__new__(TraceAnalysis)
    view.t = ta.t.__class__.__new__(ta.t.__class__)
    view.t.__dict__.update(ta.t.__dict__, traces={rank: df.loc[gpu.index.union(cpu.index)]})
    idle, _ = view.get_idle_time_breakdown(ranks=[rank], visualize=False)
    q = view.get_queue_length_summary(ranks=[rank])
    return {"idle": float(idle["idle_time"].sum()),
            "queue": {str(st): [float(r[("queue_length", "mean")]), float(r[("queue_length", "max")]),
                                float(r[("queue_length", "count")]) / 2]
                      for st, r in (q.loc[rank].iterrows() if q is not None else [])}}


def prepare_set(paths, tmp):
    """Copies one trace set into tmp as rank-N.json.gz, N from distributedInfo or the position."""
    for i, p in enumerate(paths):
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            data = json.load(f)
        info = data.setdefault("distributedInfo", {})
        info.setdefault("rank", i)
        with gzip.open(os.path.join(tmp, "rank-%d.json.gz" % info["rank"]), "wt") as f:
            json.dump(data, f)


def run_hta(paths, keep_last, hta_src):
    with tempfile.TemporaryDirectory() as tmp:
        prepare_set(paths, tmp)
        res = os.path.join(tmp, "result.json")
        env = dict(os.environ, PYTHONPATH=hta_src, PYTHONDONTWRITEBYTECODE="1")
        code = ("import json,sys; sys.path.insert(0, %r); from hta_compare import hta_child; "
                "json.dump(hta_child(%r, %r), open(%r, 'w'))") % (
            os.path.dirname(os.path.abspath(__file__)), tmp, keep_last, res)
        subprocess.run([sys.executable, "-c", code], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return json.load(open(res))


def run_cuprobe(binary, paths, window):
    args = [binary, "analyze", *paths, "--json"] + (["--hta-window", "all"] if window == "all" else [])
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    # a trace without distributedInfo has rank null in cuprobe; HTA got its position (prepare_set)
    return {str(i if r["rank"] is None else r["rank"]): r for i, r in enumerate(out["ranks"])}


def cuprobe_rows(r):
    """The cuprobe figures, in HTA's units (us), keyed like the HTA ones."""
    idle, ls, ov = r.get("idle_by_stream") or {}, r.get("launch_stats") or {}, r.get("hta_overlap") or {}
    tot, a = idle.get("total", {}), ls.get("all") or {}
    f = {"idle total": (tot.get("idle_ms", 0) * 1e3, 2 * tot.get("gaps", 0)),
         "idle host wait": (tot.get("host_wait_ms", 0) * 1e3, 2 * tot.get("gaps", 0)),
         "idle kernel wait": (tot.get("kernel_wait_ms", 0) * 1e3, 2 * tot.get("gaps", 0)),
         "idle other": (tot.get("other_ms", 0) * 1e3, 2 * tot.get("gaps", 0)),
         "launches (count)": (a.get("launches", 0), 0),
         "launch call median": (a.get("cpu_median_us"), 2),
         "launch delay median (doc def)": (a.get("delay_median_us"), 2),
         "launch delay total (doc def)": (a.get("delay_total_ms", 0) * 1e3, 2 * a.get("launches", 0)),
         "computation (merged)": (ov.get("computation_ms", 0) * 1e3, 2 * r.get("gpu_activities", 0)),
         "comm/comp overlap %": (ov.get("comp_comm_overlap_pctg"), None)}
    comm_us = ov.get("communication_ms", 0) * 1e3
    if comm_us:  # 2 us per communication kernel on |comm|, carried into the percentage
        f["comm/comp overlap %"] = (f["comm/comp overlap %"][0], 100 * 2 * ov.get("communication_kernels", 0) / comm_us)
    for q in r.get("queue_length") or []:
        key = "dev%s/stream %s" % (q["device"], q["stream"])
        for tag in ("", " [HTA per device]"):
            f["queue mean per event " + key + tag] = (q["mean_per_event"], max(0.05, 0.02 * q["mean_per_event"]))
            f["queue max " + key + tag] = (q["max"], 1)
            f["queue launches " + key + tag] = (q["launches"], 0)
    f["idle total [HTA per device]"] = f["idle total"]
    for k in ("launches (count)", "launch call median", "launch delay median (doc def)",
              "launch delay total (doc def)"):
        f[k + " [HTA frame, every launch]"] = f[k]
    return f


def hta_rows(h, cup):
    """The HTA figures under the same keys; queue streams matched by number (HTA has no device)."""
    idle = h["idle"]
    f = {"idle total": sum(v for s in idle.values() for v in s.values()),
         "idle host wait": sum(s.get("host_wait", 0) for s in idle.values()),
         "idle kernel wait": sum(s.get("kernel_wait", 0) for s in idle.values()),
         "idle other": sum(s.get("other", 0) for s in idle.values()),
         "launches (count)": h["launch"]["launches"],
         "launch call median": h["launch"]["cpu_median"],
         "launch delay median (doc def)": h["launch"]["delay_doc_median"],
         "launch delay total (doc def)": h["launch"]["delay_doc_total"],
         "computation (merged)": h["temporal"]["compute_time"],
         "comm/comp overlap %": h["overlap_pctg"]}
    for q in cup.get("queue_length") or []:
        key, hq = "dev%s/stream %s" % (q["device"], q["stream"]), h["queue"].get(str(q["stream"]))
        if hq:
            f["queue mean per event " + key] = hq["mean"]
            f["queue max " + key] = hq["max"]
            f["queue launches " + key] = hq["events"] / 2
        dv = h.get("by_device", {}).get(str(q["device"]))
        if dv and str(q["stream"]) in dv["queue"]:  # HTA's code on this device alone
            f["queue mean per event " + key + " [HTA per device]"] = dv["queue"][str(q["stream"])][0]
            f["queue max " + key + " [HTA per device]"] = dv["queue"][str(q["stream"])][1]
            f["queue launches " + key + " [HTA per device]"] = dv["queue"][str(q["stream"])][2]
    e = h["launch_every"]
    f.update({"launches (count) [HTA frame, every launch]": e["launches"],
              "launch call median [HTA frame, every launch]": e["cpu_median"],
              "launch delay median (doc def) [HTA frame, every launch]": e["delay_median"],
              "launch delay total (doc def) [HTA frame, every launch]": e["delay_total"]})
    if "by_device" in h:
        f["idle total [HTA per device]"] = sum(d["idle"] for d in h["by_device"].values())
    return f


def row(*cols):
    print(" | ".join(cols))


def num(x):
    return "-" if x is None or x != x else ("%.6g" % x)


def compare(a, b, tol):
    """'ok' when |a-b| <= tol; relative difference as text."""
    if a is None or b is None or a != a or b != b:
        return ("ok" if (a is None or a != a) and (b is None or b != b) else "DIFF"), "-"
    rel = "-" if b == 0 else "%+.2f%%" % (100 * (a - b) / abs(b))
    return ("ok" if abs(a - b) <= (tol or 0) + 1e-9 else "DIFF"), rel


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hta-src", required=True, help="directory holding HTA's hta/ package")
    ap.add_argument("--cuprobe", required=True, help="cuprobe binary")
    ap.add_argument("sets", nargs="+", help="trace file, or comma-joined rank files of one job")
    args = ap.parse_args()
    print("tolerance: 2 us per gap/event in a sum, 2 us on medians, counts exact, queue means 2%;"
          " pairs: cuprobe default vs HTA default, cuprobe --hta-window all vs HTA keep-last-step")
    row("figure", "trace/rank", "HTA default", "HTA keep-last", "cuprobe default", "cuprobe all",
        "rel diff (def | all)", "tol", "verdict")
    bad = 0
    for s in args.sets:
        paths = s.split(",")
        name = os.path.basename(paths[0]).split(".")[0]
        hd, hk = (run_hta(paths, k, args.hta_src) for k in (False, True))
        cd, ca = (run_cuprobe(args.cuprobe, paths, w) for w in ("default", "all"))
        for rank in sorted(cd, key=int):
            fd, fa = cuprobe_rows(cd[rank]), cuprobe_rows(ca[rank])
            gd, gk = hta_rows(hd["ranks"][rank], cd[rank]), hta_rows(hk["ranks"][rank], ca[rank])
            for key in fd:
                (c1, t1), (c2, t2) = fd[key], fa.get(key, (None, None))
                h1, h2 = gd.get(key), gk.get(key)
                if key.endswith("[HTA per device]") and h1 is None and h2 is None:
                    continue  # one GPU in this rank: the plain row says it all
                v1, r1 = compare(c1, h1, t1)
                v2, r2 = compare(c2, h2, t2)
                verdict = "ok" if v1 == v2 == "ok" else "DIFF"
                bad += verdict != "ok"
                row(key, "%s r%s" % (name, rank), num(h1), num(h2), num(c1), num(c2),
                    "%s | %s" % (r1, r2), num(max(t1 or 0, t2 or 0)), verdict)
            ht = hd["ranks"][rank]
            hk_r = hk["ranks"][rank]
            row("HTA temporal idle / kernel_time (no cuprobe twin)", "%s r%s" % (name, rank),
                *("%s / %s" % (num(x["temporal"]["idle_time"]), num(x["temporal"]["kernel_time"])) for x in (ht, hk_r)),
                "-", "-", "-", "-", "info")
            row("HTA launch calls not in its launch table (e.g. cuLaunchKernelEx)", "%s r%s" % (name, rank),
                num(ht["launch"]["other_calls"]), num(hk_r["launch"]["other_calls"]), "-", "-", "-", "-", "info")
        # HTA's kernel-type table is summed over ranks; so are cuprobe's rows here
        pairs = {"COMPUTATION": "computation_only_ms", "COMMUNICATION": "communication_only_ms",
                 "COMPUTATION overlapping COMMUNICATION": "overlap_ms"}
        for kt in sorted(set(hd["kernel_types"]) | set(hk["kernel_types"]) | set(pairs)):
            h1, h2 = hd["kernel_types"].get(kt, 0.0), hk["kernel_types"].get(kt, 0.0)
            if kt not in pairs:
                row("kernel-type time: " + kt, name + " (all ranks)", num(h1), num(h2),
                    "-", "-", "-", "-", "info (no cuprobe twin)")
                continue
            c1, c2 = (sum(r["hta_overlap"][pairs[kt]] for r in c.values() if r.get("hta_overlap")) * 1e3
                      for c in (cd, ca))
            tol = 2 * sum(r.get("gpu_activities", 0) for r in ca.values())
            (v1, r1), (v2, r2) = compare(c1, h1, tol), compare(c2, h2, tol)
            verdict = "ok" if v1 == v2 == "ok" else "DIFF"
            bad += verdict != "ok"
            row("kernel-type time: " + kt, name + " (all ranks)", num(h1), num(h2), num(c1),
                num(c2), "%s | %s" % (r1, r2), num(tol), verdict)
    print("rows beyond tolerance: %d" % bad)


if __name__ == "__main__":
    main()
