#!/usr/bin/env bash
# On a GPU host that has Nsight Systems: records a small CUDA workload (the
# decode-like PyTorch loop record_decode_loop.py, whose steps are NVTX ranges)
# with nsys, exports its SQLite, and checks that `cuprobe analyze --json` of
# the export (and of the .nsys-rep given directly) agrees with `nsys stats
# --report cuda_gpu_kern_sum`: the number of kernels and their total time,
# within 0.1%. The kernels furthest off by name are listed too (nsys versions
# name kernels in the report differently, so those only inform).
# Usage: BINDIR OUTDIR [STEPS]   (BINDIR holds cuprobe and what it needs, see
# README.md). Exits 1 when a total is off by more than 0.1%.
#
# Not run where cuprobe is developed: that machine has no nsys, and the GPU
# host used so far has none either (docs/validation.md). The importer was built
# from the documented export schema (tests/data/make_nsys_fixtures.py); this
# script is how to check it against a real export.
set -euo pipefail
bin="$(cd "$1" && pwd)"; out="$2"; steps="${3:-40}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
command -v nsys >/dev/null || { echo "nsys_check: nsys is not on PATH" >&2; exit 2; }
nsys --version | tee "$out/nsys_version.txt"

rm -f "$out/report.nsys-rep" "$out/report.sqlite"
nsys profile --trace=cuda,nvtx --sample=none --cpuctxsw=none -o "$out/report" --force-overwrite true \
  python3 "$here/record_decode_loop.py" --steps "$steps" --warmup 10 >"$out/nsys_profile.log" 2>&1 \
  || { tail -20 "$out/nsys_profile.log" >&2; exit 1; }
nsys export --type sqlite --force-overwrite true -o "$out/report.sqlite" "$out/report.nsys-rep" >"$out/nsys_export.log" 2>&1
nsys stats --report cuda_gpu_kern_sum --format csv --force-export false -o "$out/kern_sum" "$out/report.sqlite" \
  >"$out/nsys_stats.log" 2>&1
csv="$(ls "$out"/kern_sum*cuda_gpu_kern_sum*.csv | head -1)"

"$bin/cuprobe" analyze --json "$out/report.sqlite" >"$out/analyze_sqlite.json"
"$bin/cuprobe" analyze --json "$out/report.nsys-rep" >"$out/analyze_rep.json"   # cuprobe runs nsys export itself
"$bin/cuprobe" analyze "$out/report.sqlite" >"$out/analyze_sqlite.txt"

python3 - "$csv" "$out/analyze_sqlite.json" "$out/analyze_rep.json" <<'PY'
import csv, json, sys
from collections import defaultdict

nsys_time, nsys_count = defaultdict(float), defaultdict(int)
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        nsys_time[row["Name"]] += float(row["Total Time (ns)"]) / 1e6
        nsys_count[row["Name"]] += int(row["Instances"])

def cuprobe_kernels(path):
    report = json.load(open(path))
    time, count = defaultdict(float), defaultdict(int)
    for rank in report["ranks"]:
        for k in rank["kernels"]:
            if k["category"] in ("memcpy", "memset"):
                continue
            time[k["name"]] += k["time_ms"]
            count[k["name"]] += k["calls"]
    return report, time, count

def off(a, b):
    return abs(a - b) / b if b else (0.0 if a == b else float("inf"))

ok = True
for path in sys.argv[2:]:
    report, time, count = cuprobe_kernels(path)
    steps = [r["steps"]["source"] + ":" + str(len(r["steps"]["steps"])) for r in report["ranks"]]
    total_c, total_n = sum(time.values()), sum(nsys_time.values())
    calls_c, calls_n = sum(count.values()), sum(nsys_count.values())
    print(f"{path}: ranks {len(report['ranks'])}, steps {steps}")
    print(f"  kernels: cuprobe {calls_c} calls {total_c:.4f} ms | nsys {calls_n} calls {total_n:.4f} ms"
          f" | time off {100 * off(total_c, total_n):.4f}%")
    ok &= calls_c == calls_n and off(total_c, total_n) <= 0.001
    worst = sorted(((off(time.get(n, 0.0), t), n) for n, t in nsys_time.items()), reverse=True)[:5]
    for o, n in worst:
        print(f"  {100 * o:8.4f}%  {count.get(n, 0):6d}/{nsys_count[n]:6d} calls  {n[:100]}")
    missing = set(time) - set(nsys_time)
    if missing:
        print("  names cuprobe has and nsys's report does not:", sorted(missing)[:5])
print("nsys_check:", "OK (within 0.1%)" if ok else "FAILED")
sys.exit(0 if ok else 1)
PY
