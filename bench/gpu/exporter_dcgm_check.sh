#!/usr/bin/env bash
# On a GPU host: every series of dcgm-exporter's default counters file from
# `cuprobe exporter -f tests/data/dcgm_exporter/default-counters.csv`, beside a
# bf16 GEMM load on GPU 0. Two scrapes 10 s apart; checks, as PASS/FAIL lines:
#   - each default series that docs/exporter.md's table marks "yes" is on the page
#     for GPU 0 with a plausible value (clocks > 0, 0 <= ratios <= 1, 0 <= % <= 100,
#     temperatures 10-110 C, power > 50 W under load, ...);
#   - DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION grows between the scrapes, by about the
#     mean power × 10 s (within 40 %);
#   - FB free + used + reserved = total (within 1 MiB per GPU, total from nvidia-smi);
#   - XID 0 and cuprobe_xid_errors_total 0; remapped rows 0, no remap failure;
#   - the DCGM_FI_DRIVER_VERSION label is nvidia-smi's driver version;
#   - (INFO) whether dram__cycles_active is a valid PM sampling metric here: if so,
#     DCGM_FI_PROF_DRAM_ACTIVE could be served from it (docs/exporter.md).
# Usage (from the repository root):  bash bench/gpu/exporter_dcgm_check.sh [OUTDIR] [PORT]
#   Binaries in $PWD/.carry: cuprobe (built on the development machine) and, if present,
#   sample_loads (else built here with nvcc, else the GEMM runs in torch) and the shared
#   libraries cuprobe needs. Exit 1 when a check failed.
set -uo pipefail
root=$PWD
carry=$root/.carry
out=${1:-$root/exporter_dcgm_check}
port=${2:-19402}
mkdir -p "$out"
export LD_LIBRARY_PATH="$carry:$carry/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cuprobe=$carry/cuprobe
counters=$root/tests/data/dcgm_exporter/default-counters.csv
url="http://127.0.0.1:$port"
fail=0
pass() { echo "PASS $*"; }
failed() { echo "FAIL $*"; fail=1; }
[[ -x $cuprobe ]] || { echo "FAIL no cuprobe at $cuprobe"; exit 1; }

# The GEMM load: sample_loads from .carry, else built here, else torch.
loads=$carry/sample_loads
if [[ ! -x $loads ]] && command -v nvcc > /dev/null; then
  nvcc -O2 -arch=sm_90 "$root/bench/gpu/sample_loads.cu" -o "$out/sample_loads" -lcublas 2> "$out/nvcc.log" &&
    loads=$out/sample_loads
fi
if [[ -x $loads ]]; then
  CUDA_VISIBLE_DEVICES=0 "$loads" gemm 60 > "$out/gemm.log" 2>&1 &
else
  CUDA_VISIBLE_DEVICES=0 python3 - > "$out/gemm.log" 2>&1 <<'PY' &
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
end = time.time() + 60
while time.time() < end:
    for _ in range(20):
        a @ b
    torch.cuda.synchronize()
PY
fi
gemm=$!
exporter=
trap 'kill $gemm $exporter 2>/dev/null || true' EXIT
sleep 5  # the GEMM warms up

"$cuprobe" exporter --listen "127.0.0.1:$port" -f "$counters" 2> "$out/exporter.err" &
exporter=$!
for _ in $(seq 100); do curl -sf "$url/healthz" > /dev/null && break; sleep 0.1; done
curl -sf "$url/metrics" > /dev/null || { echo "FAIL exporter did not answer"; cat "$out/exporter.err"; exit 1; }
sleep 5
curl -s "$url/metrics" > "$out/scrape1.txt"
t1=$(date +%s.%N)
sleep 10
curl -s "$url/metrics" > "$out/scrape2.txt"
t2=$(date +%s.%N)
kill -TERM $exporter; wait $exporter; rc=$?
exporter=
[[ $rc == 0 ]] && pass "exporter stopped by SIGTERM (exit 0)" || failed "exporter exit code $rc"
grep -q "does not serve" "$out/exporter.err" && failed "warning on the default file: $(grep 'does not serve' "$out/exporter.err")"
nvidia-smi --query-gpu=index,memory.total,driver_version --format=csv,noheader,nounits > "$out/nvidia_smi.csv"
# A GPU without NVLink (a one-GPU VM) has no NVLink counters: the series is absent there, as DCGM's is.
NVLINK_LINKS=$(nvidia-smi nvlink -s -i 0 2>/dev/null | grep -c "Link [0-9]") || true
export NVLINK_LINKS

python3 - "$out/scrape1.txt" "$out/scrape2.txt" "$t1" "$t2" "$root/docs/exporter.md" "$out/nvidia_smi.csv" <<'PY' || fail=1
import os, re, sys
s1, s2, t1, t2, doc, smi = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
line_re = re.compile(r'^([A-Za-z_:][A-Za-z0-9_:]*)\{(.*)\} (\S+)$')
def page(path):
    out = []
    for line in open(path):
        m = line_re.match(line.strip())
        if m:
            labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2)))
            out.append((m.group(1), labels, float(m.group(3))))
    return out
p1, p2 = page(s1), page(s2)
def value(p, name, gpu="0"):
    v = [x for n, l, x in p if n == name and l.get("gpu") == gpu and "GPU_I_ID" not in l]
    return v[0] if v else None
rows, inside = [], False
for line in open(doc):
    if "dcgm-default-series: begin" in line: inside = True
    elif "dcgm-default-series: end" in line: break
    elif inside and line.startswith("| `"):
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        rows.append((cells[0], cells[4]))
fails = 0
def check(ok, what):
    global fails
    print(("PASS " if ok else "FAIL ") + what)
    fails += 0 if ok else 1
ranges = {"CLOCK": (1, 5000), "TEMP": (10, 110), "POWER_USAGE": (50, 1500), "UTIL": (0, 100),
          "PROF_": (0, 1), "FB_": (0, 1e7), "PCIE_REPLAY": (0, 0), "REMAPPED_ROWS": (0, 0),
          "ROW_REMAP_FAILURE": (0, 0), "XID": (0, 0), "ENERGY": (1, 1e18), "NVLINK": (0, 1e18)}
nvlink_links = int(os.environ.get("NVLINK_LINKS") or 0)
for name, served in rows:
    v = value(p2, name)
    if "NVLINK" in name and nvlink_links == 0:
        print(f"INFO {name}: GPU 0 has no NVLink links (nvidia-smi nvlink -s); {'present ' + str(v) if v is not None else 'absent'}")
        continue
    if served != "yes":
        print(f"INFO {name}: not expected on this host ({served}); {'present ' + str(v) if v is not None else 'absent'}")
        continue
    if v is None:
        check(False, f"{name} present")
        continue
    lo, hi = next((r for k, r in ranges.items() if k in name), (0, 1e18))
    if name.startswith("DCGM_FI_PROF_PCIE"): lo, hi = 0, 1e11
    check(lo <= v <= hi, f"{name}{{gpu=0}} = {v:g} (expected {lo:g}..{hi:g})")
e1, e2 = value(p1, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"), value(p2, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")
power = value(p2, "DCGM_FI_DEV_POWER_USAGE")
if None not in (e1, e2, power):
    joules = (e2 - e1) / 1000
    expect = power * (t2 - t1)
    check(e2 > e1, f"energy grows under load: +{joules:.0f} J in {t2 - t1:.1f} s")
    check(abs(joules - expect) <= 0.4 * expect, f"energy growth {joules:.0f} J ~ mean power {power:.0f} W x {t2 - t1:.1f} s = {expect:.0f} J")
check(value(p2, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE") is not None and value(p2, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE") > 0.5,
      f"tensor active under the GEMM: {value(p2, 'DCGM_FI_PROF_PIPE_TENSOR_ACTIVE')}")
driver = None
for line in open(smi):
    idx, total, drv = [c.strip() for c in line.split(",")]
    driver = drv
    f = [value(p2, "DCGM_FI_DEV_FB_" + k, idx) for k in ("FREE", "USED", "RESERVED")]
    if None in f:
        check(False, f"GPU {idx}: FB free/used/reserved present ({f})")
        continue
    check(abs(sum(f) - float(total)) <= 1, f"GPU {idx}: FB free {f[0]:.0f} + used {f[1]:.0f} + reserved {f[2]:.0f} = {sum(f):.0f} MiB, nvidia-smi total {total}")
    check(value(p2, "DCGM_FI_DEV_XID_ERRORS", idx) == 0 and value(p2, "cuprobe_xid_errors_total", idx) == 0,
          f"GPU {idx}: XID 0, cuprobe_xid_errors_total 0")
    rows_ = [value(p2, "DCGM_FI_DEV_" + k, idx) for k in ("UNCORRECTABLE_REMAPPED_ROWS", "CORRECTABLE_REMAPPED_ROWS", "ROW_REMAP_FAILURE")]
    check(rows_ == [0, 0, 0], f"GPU {idx}: remapped rows 0, no remap failure ({rows_})")
labels = [l for n, l, x in p2 if n == "DCGM_FI_DEV_POWER_USAGE"]
check(bool(labels) and all(l.get("DCGM_FI_DRIVER_VERSION") == driver for l in labels),
      f"DCGM_FI_DRIVER_VERSION label = {labels[0].get('DCGM_FI_DRIVER_VERSION') if labels else None} (nvidia-smi {driver})")
sys.exit(1 if fails else 0)
PY

# INFO: can PM sampling read active DRAM cycles here (DCGM's DRAM_ACTIVE meaning)?
if "$cuprobe" sample -q --gpu 0 --duration 2s --metrics dram__cycles_active.avg.pct_of_peak_sustained_elapsed \
     -o "$out/dram_cycles.csv" 2> "$out/dram_cycles.err"; then
  echo "INFO dram__cycles_active.avg.pct_of_peak_sustained_elapsed is readable here: $(tail -1 "$out/dram_cycles.csv")"
else
  echo "INFO dram__cycles_active not readable by PM sampling here: $(tail -1 "$out/dram_cycles.err")"
fi
[[ $fail == 0 ]] && echo "PASS all checks" || echo "FAIL some checks failed"
exit $fail
