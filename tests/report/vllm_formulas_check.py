#!/usr/bin/env python3
"""Applies vLLM's calculate_metrics formulas (vllm/benchmarks/serve.py) to a
cuprobe --save-requests file and checks that cuprobe's vLLM result
(--save-result FILE --result-format vllm) holds the same numbers.

usage: vllm_formulas_check.py REQUESTS.jsonl RESULT.json TTFT_MS TPOT_MS E2E_MS PERCENTILES
(an SLO of -1 is not given; PERCENTILES like 50,90,99.9)

numpy-free: np.mean, np.std (ddof 0), np.median and np.percentile (linear) are
written out. Means, percentiles and rates are compared to 1e-9 relative (numpy
sums pairwise, cuprobe in order); counts, totals and the per-second peaks
(max_output_tokens_per_s, max_concurrent_requests) exactly."""
import json
import math
import sys


def mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def std(xs):
    if not xs:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def percentile(xs, q):
    if not xs:
        return 0.0
    s = sorted(xs)
    rank = q / 100 * (len(s) - 1)
    lo = math.floor(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def p_word(p):
    return str(int(p)) if int(p) == p else str(p)


def main():
    req_path, result_path = sys.argv[1], sys.argv[2]
    slo = {k: float(v) for k, v in zip(("ttft", "tpot", "e2el"), sys.argv[3:6]) if float(v) >= 0}
    percentiles = [float(p) for p in sys.argv[6].split(",")]
    records = [json.loads(line) for line in open(req_path) if line.strip()]
    records = [r for r in records if not r["warmup"]]
    result = json.load(open(result_path))

    # vLLM's calculate_metrics, times in ms from cuprobe's ns stamps.
    ttfts, tpots, all_tpots, itls, e2els, outs = [], [], [], [], [], []
    completed = 0
    for r in records:
        if not r["ok"] or not r["content_ns"]:
            continue
        out = r["completion_tokens"] if r["completion_tokens"] is not None else r["content_events"]
        ttft = (r["content_ns"][0] - r["send_ns"]) / 1e6
        latency = (r["end_ns"] - r["send_ns"]) / 1e6
        tpot = 0.0
        if out > 1:
            tpot = (r["end_ns"] - r["content_ns"][0]) / 1e6 / (out - 1)
            tpots.append(tpot)
        all_tpots.append(tpot)
        itls += [(b - a) / 1e6 for a, b in zip(r["content_ns"], r["content_ns"][1:])]
        ttfts.append(ttft)
        e2els.append(latency)
        outs.append(out)
        completed += 1
    # max_output_tokens_per_s: tokens (content events) per 1 s bucket from the earliest send;
    # max_concurrent_requests: vLLM's sweep line over [start, start + latency), departures first.
    ok = [r for r in records if r["ok"] and r["content_ns"]]
    peak_out, peak_conc = 0.0, 0
    if ok:
        first = min(r["send_ns"] for r in ok)
        last = max(r["end_ns"] for r in ok)
        buckets = int(math.ceil((last - first) / 1e9)) + 1
        tokens = [0] * buckets
        for r in ok:
            for t in r["content_ns"]:
                b = int((t - first) / 1e9)
                if 0 <= b < buckets:
                    tokens[b] += 1
        events = sorted([(r["send_ns"], 1) for r in ok] + [(r["end_ns"], -1) for r in ok])
        now = 0
        for _, delta in events:
            now += delta
            peak_conc = max(peak_conc, now)
        peak_out = float(max(tokens))
    good = 0
    if slo:
        for t, p, e in zip(ttfts, all_tpots, e2els):
            value = {"ttft": t, "tpot": p, "e2el": e}
            if all(slo[k] >= value[k] for k in slo):
                good += 1
    measured = [r for r in records]
    start = min(min(r["send_ns"], r["scheduled_ns"]) for r in measured)
    end = max(r["end_ns"] for r in measured)
    dur_s = (end - start) / 1e9

    failures = []

    def check(key, want, exact=False):
        got = result.get(key)
        if got is None and want is None:
            return
        ok = got == want if exact else (got is not None and math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9))
        if not ok:
            failures.append(f"{key}: cuprobe {got}, vLLM's formula {want}")

    check("completed", completed, exact=True)
    check("duration", dur_s)
    check("request_throughput", completed / dur_s)
    check("total_output_tokens", sum(outs), exact=True)
    check("output_throughput", sum(outs) / dur_s)
    check("request_goodput", good / dur_s if slo else None)
    check("max_output_tokens_per_s", peak_out, exact=True)
    check("max_concurrent_requests", peak_conc, exact=True)
    check("rtfx", 0.0, exact=True)
    # vLLM's per-request lists (seconds, every measured request in send order):
    # latency 0.0 for a failure; queue time from the arrival (closed loop: the first send).
    closed = result.get("request_rate") == "inf"
    first_send = min(r["send_ns"] for r in records)
    lat = [(r["end_ns"] - r["send_ns"]) / 1e9 if r["ok"] else 0.0 for r in records]
    queue = [max(0, r["send_ns"] - (first_send if closed else r["scheduled_ns"])) / 1e9 for r in records]
    for key, want in (("latencies", lat), ("queue_times", queue)):
        got = result.get(key) or []
        if len(got) != len(want) or any(not math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-12) for g, w in zip(got, want)):
            failures.append(f"{key}: cuprobe {got[:3]}..., vLLM's formula {want[:3]}...")
    for name, xs in (("ttft", ttfts), ("tpot", tpots), ("itl", itls), ("e2el", e2els)):
        check(f"mean_{name}_ms", mean(xs))
        check(f"median_{name}_ms", percentile(xs, 50))
        check(f"std_{name}_ms", std(xs))
        for p in percentiles:
            check(f"p{p_word(p)}_{name}_ms", percentile(xs, p))
    if failures:
        print("\n".join(failures))
        return 1
    print(f"ok: {completed} requests, {good} good, {len(itls)} ITLs; every figure matches vLLM's formulas")
    return 0


if __name__ == "__main__":
    sys.exit(main())
