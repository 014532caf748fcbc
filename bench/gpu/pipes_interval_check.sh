#!/usr/bin/env bash
# Every percentage column of `triage` and `pipes` on steady known loads at 10 ms, 100 ms
# and 1 s (issue 29: `pipes` read a sawtooth). Each load (bf16 GEMM, copy, idle, fp8->bf16
# cast) runs in the background while cuprobe samples it six times (2 presets x 3
# intervals, --duration), so every sample but the first and last is steady. Per column:
# the steady mean/min/max, the worst sample's distance from the reference, and PASS when
# the steady mean is within 2 points of the reference (a sawtooth moves the mean by tens
# of points), FAIL otherwise. Reference: triage at 100 ms of the same load; for
# tensor_hmma_pct triage's tensor_active_pct (the loads' tensor work is bf16 HMMA or
# none), for tensor_imma_pct 0 (no load uses int8), for fma_pct (no triage counterpart)
# pipes at 100 ms. Also prints cuprobe's lost samples, peak RSS and, for pipes, the
# decode profile (image resets). About 2.5 minutes of GPU time; exit 1 on any FAIL.
#   bench/gpu/pipes_interval_check.sh CUPROBE SAMPLE_LOADS OUT [GPU]
set -uo pipefail
cuprobe=$1 loads=$2 out=$3 gpu=${4:-0}
mkdir -p "$out"
python3 - "$cuprobe" "$loads" "$out" "$gpu" <<'PY'
import csv, json, os, resource, subprocess, sys, time

cuprobe, loads, out, gpu = sys.argv[1:5]
LOADS = ["gemm", "copy", "idle", "cast"]
RUNS = [("triage", "100ms", 3), ("pipes", "100ms", 3), ("triage", "10ms", 2), ("pipes", "10ms", 2),
        ("triage", "1s", 7), ("pipes", "1s", 7)]  # preset, interval, seconds
TOLERANCE = 2.0  # points


def sample(load, preset, interval, seconds):
    name = f"{load}_{preset}_{interval}"
    csv_path, json_path = f"{out}/{name}.csv", f"{out}/{name}.json"
    env = dict(os.environ, CUPROBE_DECODE_PROFILE="1")
    # A fresh python per run so that RUSAGE_CHILDREN's peak RSS is this cuprobe's alone.
    probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]).returncode; "
             "print(r, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    cmd = [sys.executable, "-c", probe, cuprobe, "sample", "-q", "--gpu", gpu, "--preset", preset,
           "--interval", interval, "--duration", f"{seconds}s", "-o", csv_path, "--summary-json", json_path]
    with open(f"{out}/{name}.err", "w") as err:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=err, text=True)
    rc, rss_kib = (p.stdout.split() + ["?", "?"])[:2]
    errtext = open(f"{out}/{name}.err").read()
    profile = next((l.replace("cuprobe decode profile: ", "") for l in errtext.splitlines()
                    if "decode profile" in l), "")
    try:
        summary = json.load(open(json_path))
        lost = summary.get("lost_samples", "?")
    except (OSError, ValueError):
        lost = "?"
    try:
        rows = list(csv.DictReader(open(csv_path)))
    except OSError:
        rows = []
    steady = rows[1:-1]  # the first and last sample cover the start and the stop
    return {"rc": rc, "rss_mib": f"{int(rss_kib) / 1024:.0f}" if rss_kib.isdigit() else "?", "lost": lost,
            "profile": profile, "rows": steady, "err": errtext.strip().splitlines()[-1:] if rc != "0" else []}


def column(rows, name):
    vals = []
    for r in rows:
        try:
            vals.append(float(r[name]))
        except (KeyError, ValueError, TypeError):
            pass
    return vals


failures = 0
for load in LOADS:
    seconds = sum(s for _, _, s in RUNS) + 6 * 2 + 10  # samples, cuprobe start-ups, margin
    bg = subprocess.Popen([loads, load, str(seconds)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=dict(os.environ, CUDA_VISIBLE_DEVICES=gpu))
    time.sleep(3)  # context, cuBLAS and the first kernels
    results = {}
    for preset, interval, secs in RUNS:
        results[(preset, interval)] = sample(load, preset, interval, secs)
    bg.kill()
    load_out = bg.communicate()[0].strip().splitlines()
    print(f"== {load}{': ' + load_out[-1] if load_out else ''}")
    ref_rows = results[("triage", "100ms")]["rows"]
    pipes_ref = results[("pipes", "100ms")]["rows"]
    for (preset, interval), r in results.items():
        print(f"  {preset} {interval}: rc={r['rc']} steady rows {len(r['rows'])}, lost {r['lost']}, "
              f"peak RSS {r['rss_mib']} MiB{'; ' + r['profile'] if r['profile'] else ''}"
              f"{' ' + str(r['err']) if r['err'] else ''}")
        if not r["rows"]:
            print("    FAIL: no steady rows")
            failures += 1
            continue
        for name in [c for c in r["rows"][0].keys() if c.endswith("_pct")]:
            vals = column(r["rows"], name)
            if not vals:
                continue
            if name == "tensor_hmma_pct":
                ref_vals, ref_name = column(ref_rows, "tensor_active_pct"), "triage 100ms tensor_active_pct"
            elif name == "tensor_imma_pct":
                ref_vals, ref_name = [0.0], "0"
            elif name == "fma_pct":
                ref_vals, ref_name = column(pipes_ref, name), "pipes 100ms"
            else:
                ref_vals, ref_name = column(ref_rows, name), "triage 100ms"
            if not ref_vals:
                continue
            ref = sum(ref_vals) / len(ref_vals)
            mean = sum(vals) / len(vals)
            worst = max(abs(v - ref) for v in vals)
            verdict = "PASS" if abs(mean - ref) <= TOLERANCE else "FAIL"
            failures += verdict == "FAIL"
            print(f"    {name:16s} mean {mean:6.2f} min {min(vals):6.2f} max {max(vals):6.2f} worst {worst:5.2f}  "
                  f"ref {ref:6.2f} ({ref_name})  {verdict}: mean within {TOLERANCE:g} points")
print(f"pipes_interval_check: {'PASS' if failures == 0 else f'FAIL ({failures} columns)'}")
sys.exit(1 if failures else 0)
PY
