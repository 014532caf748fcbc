#!/usr/bin/env python3
"""Writes a set of N rank traces built from real Kineto traces, with a planted
straggler and planted clock offsets, for the cross-rank analysis tests (issue 37).
Nothing it writes is committed: tests run it into a temporary directory.

Each rank is a copy of a base trace (several bases are used in turn: rank r gets
base r % len(bases), so the tp2 pair gives ranks that really ran together).
Times are Kineto's microseconds.

Collectives are the base's NCCL kernels (name contains "nccl"); a base without
them gets one inserted after every K-th kernel (--insert-collectives-every K:
a 10 us "ncclDevKernel_AllReduce_Sum_bf16_RING_LL" on its own stream).

The straggler (--straggler S, --delay-us D) arrives late at every collective
from call --first-call on: before each such call it runs D us more than the
others, as an extra kernel "straggler_extra_work_kernel" on the stream of the
kernel before the call (--kind kernel) or as a host gap (--kind gap: nothing
runs). Everything of S from that call's start on moves D later. On every other
rank the call lasts D longer (it waits) and what follows its end moves D later,
so the calls' ends stay the same instant on every rank, as they are on a real
job.

Clock offsets: rank r's timestamps get offset[r] us added (--offsets-us a,b,...
or --offset-spread-us M: rank r gets ((r * 7919) % 2001 - 1000) / 1000 * M,
rank 0 gets 0). The offsets the analysis should find are offset[r] - offset[0].

The base's process group (torch's "Process Group Ranks" and "Group size" on its
NCCL kernels and record_param_comms) is widened to all N ranks: the set is one
communicator of N ranks, as the calls are matched (issue 37: per communicator).
--groups-on-operators-only drops it from the kernels (record_param_comms keeps
it), as traces that name it on the operator alone.

Writes DIR/rank<r>.json.gz and DIR/truth.json (the planted values).
"""
import argparse
import bisect
import copy
import gzip
import json
import os

EXTRA = "straggler_extra_work_kernel"
INSERTED = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def kernels(events):
    return sorted((e for e in events if e.get("cat") == "kernel" and "dur" in e), key=lambda e: e["ts"])


def is_collective(e):
    return "nccl" in e["name"].lower()


def insert_collectives(trace, every):
    events = trace["traceEvents"]
    ks = kernels(events)
    if not ks or any(is_collective(k) for k in ks):
        return
    proto = ks[0]
    for i, k in enumerate(ks):
        if (i + 1) % every:
            continue
        c = copy.deepcopy(proto)
        c["name"] = INSERTED
        c["ts"] = k["ts"] + k["dur"] + 1.0
        c["dur"] = 10.0
        c["args"] = {"device": k["args"].get("device", 0), "stream": 99991, "correlation": 900000000 + i}
        events.append(c)


def shift_events(events, boundaries, delay, strict):
    """Moves every timed event by delay x (boundaries at or before it; strict: before it)."""
    for e in events:
        if e.get("ph") == "M" or not isinstance(e.get("ts"), (int, float)):
            continue
        n = bisect.bisect_left(boundaries, e["ts"]) if strict else bisect.bisect_right(boundaries, e["ts"])
        e["ts"] = e["ts"] + delay * n


def plant(trace, straggler, delay, first, kind):
    events = trace["traceEvents"]
    calls = [k for k in kernels(events) if is_collective(k)][first:]
    if straggler:
        starts = sorted(c["ts"] for c in calls)
        before = {}
        compute = [k for k in kernels(events) if not is_collective(k)]
        times = [k["ts"] for k in compute]
        for c in calls:  # the kernel that ran last before the call, for its stream
            i = bisect.bisect_left(times, c["ts"]) - 1
            before[id(c)] = compute[i] if i >= 0 else c
        extras = []
        for n, c in enumerate(calls):
            if kind == "kernel":
                x = copy.deepcopy(before[id(c)])
                x["name"] = EXTRA
                x["ts"] = c["ts"] + delay * n
                x["dur"] = float(delay)
                x["args"] = {"device": x["args"].get("device", 0), "stream": x["args"].get("stream", 7)}
                extras.append(x)
        shift_events(events, starts, delay, strict=False)
        events.extend(extras)
    else:
        ends = sorted(c["ts"] + c["dur"] for c in calls)
        for c in calls:
            c["dur"] += delay
        shift_events(events, ends, delay, strict=False)
    return len(calls)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", action="append", required=True, help="a real Kineto trace (repeat: used in turn)")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--straggler", type=int, default=-1)
    ap.add_argument("--delay-us", type=float, default=0.0)
    ap.add_argument("--kind", choices=["kernel", "gap"], default="kernel")
    ap.add_argument("--first-call", type=int, default=1)
    ap.add_argument("--insert-collectives-every", type=int, default=0)
    ap.add_argument("--offsets-us", default="")
    ap.add_argument("--offset-spread-us", type=float, default=0.0)
    ap.add_argument("--groups-on-operators-only", action="store_true")
    a = ap.parse_args()

    bases = [load(p) for p in a.base]
    if a.insert_collectives_every:
        for b in bases:
            insert_collectives(b, a.insert_collectives_every)
    if a.offsets_us:
        offsets = [float(x) for x in a.offsets_us.split(",")]
        offsets += [0.0] * (a.ranks - len(offsets))
    else:
        offsets = [((r * 7919) % 2001 - 1000) / 1000.0 * a.offset_spread_us for r in range(a.ranks)]
        offsets[0] = 0.0
    members = str(list(range(a.ranks)))
    for b in bases:
        for e in b["traceEvents"]:
            args = e.get("args")
            if isinstance(args, dict) and "Process Group Ranks" in args:
                args["Process Group Ranks"] = members
                args["Group size"] = a.ranks
                if a.groups_on_operators_only and e.get("cat") == "kernel":
                    for key in ("Process Group Name", "Process Group Description", "Process Group Ranks"):
                        del args[key]
    os.makedirs(a.out, exist_ok=True)
    planted_calls = 0
    # The planted variants of each base, made once: the straggler's and the waiting ranks'.
    variants = {}
    for r in range(a.ranks):
        b = r % len(bases)
        role = a.delay_us > 0 and r == a.straggler
        if (b, role) not in variants:
            t = copy.deepcopy(bases[b])
            if a.delay_us > 0:
                planted_calls = plant(t, role, a.delay_us, a.first_call, a.kind)
            variants[(b, role)] = t
    for r in range(a.ranks):
        t = variants[(r % len(bases), a.delay_us > 0 and r == a.straggler)]
        events = t["traceEvents"]
        saved = [e.get("ts") for e in events]
        for e in events:
            if e.get("ph") != "M" and isinstance(e.get("ts"), (int, float)):
                e["ts"] = e["ts"] + offsets[r]
        info = dict(t.get("distributedInfo", {}))
        saved_info = t.get("distributedInfo")
        info.update({"rank": r, "world_size": a.ranks})
        t["distributedInfo"] = info
        with gzip.open(os.path.join(a.out, "rank%d.json.gz" % r), "wt", compresslevel=1) as f:
            json.dump(t, f, separators=(",", ":"))
        for e, ts in zip(events, saved):
            if ts is not None:
                e["ts"] = ts
        if saved_info is None:
            del t["distributedInfo"]
        else:
            t["distributedInfo"] = saved_info
    truth = {"ranks": a.ranks, "straggler": a.straggler, "delay_us": a.delay_us, "kind": a.kind,
             "planted_calls": planted_calls, "offsets_us": [o - offsets[0] for o in offsets]}
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
