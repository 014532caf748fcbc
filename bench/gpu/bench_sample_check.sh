#!/usr/bin/env bash
# On a GPU host: `cuprobe bench --sample` against the test suite's streaming
# server while a bf16 GEMM loop keeps the GPU busy; the counter summary of the
# steady window must show the tensor pipes busy. Usage: BINDIR OUTDIR
# (BINDIR holds cuprobe, load_stream_server_bench and any shared libraries they need).
set -euo pipefail
bin="$1"; out="$2"; mkdir -p "$out"
export LD_LIBRARY_PATH="$bin:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
port_file="$out/port"
"$bin/load_stream_server_bench" --ttft-us 20000 --itl-us 10000 >"$port_file" 2>/dev/null &
server=$!
python3 - <<'PY' &
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
end = time.time() + 25
while time.time() < end:
    for _ in range(20):
        a @ b
    torch.cuda.synchronize()
PY
gemm=$!
trap 'kill $server $gemm 2>/dev/null || true' EXIT
for _ in $(seq 50); do [[ -s "$port_file" ]] && break; sleep 0.1; done
sleep 5  # the GEMM loop warms up
"$bin/cuprobe" bench "http://127.0.0.1:$(cat "$port_file")" -c 16 -n 160 --input-len 64 --output-len 64 \
  --sample --interval 50ms --json >"$out/bench_sample.json"
python3 - "$out/bench_sample.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r.get("sample")
print("requests:", r["requests"], "steady s:", r["steady"].get("duration_s"))
print(json.dumps(s, indent=1)[:3000])
PY
