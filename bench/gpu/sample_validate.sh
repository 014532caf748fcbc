#!/usr/bin/env bash
# Runs known loads on GPU 0 under `cuprobe sample` and checks the counters
# (docs/validation.md records the results). Needs: a GPU, cuprobe, sample_loads
# (nvcc -O2 -arch=sm_90 bench/gpu/sample_loads.cu -lcublas), python3; ncu optional.
#   bench/gpu/sample_validate.sh CUPROBE SAMPLE_LOADS OUTDIR
set -uo pipefail
cuprobe=$1 loads=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
echo "== host"; date -u; nvidia-smi --query-gpu=index,name,driver_version,memory.used --format=csv,noheader
"$cuprobe" --version
echo "== devices"; "$cuprobe" devices; echo "rc=$?"
"$cuprobe" devices --json > "$out/devices.json"; echo "devices --json rc=$?"
"$cuprobe" devices --require-idle; echo "require-idle (idle GPU) rc=$?"
verdicts=()
for load in idle gemm copy cast; do
  echo "== sample: $load"
  launch=$(date +%s%N)
  "$cuprobe" sample --interval 10ms -o "$out/$load.csv" --summary-json "$out/summary_$load.json" \
    -- "$loads" "$load" 6
  echo "rc=$?"
  python3 "$here/sample_check.py" "$load" "$out/$load.csv" "$launch" | tee "$out/check_$load.json"
  verdicts+=("$load=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$out/check_$load.json")")
done
echo "== verdicts: ${verdicts[*]}"
echo "== jsonl and raw metrics"
"$cuprobe" sample --interval 50ms --duration 1s --format jsonl \
  --metrics gr__cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum | head -3; echo "rc=$?"
echo "== refusals on a real GPU"
"$cuprobe" sample --gpu 7 --duration 1s; echo "nonexistent GPU rc=$? (want 2)"
"$cuprobe" sample --metrics no__such_metric.sum --duration 1s; echo "bad metric rc=$? (want 2)"
"$cuprobe" sample --duration 4s -q -o /dev/null & first=$!
sleep 1.5
"$cuprobe" sample --duration 1s -q; echo "second sampler rc=$? (want 3: busy)"
"$cuprobe" devices | grep -i counters; 
wait $first; echo "first sampler rc=$?"
grep -i profiling /proc/driver/nvidia/params 2>/dev/null
cp "$cuprobe" /tmp/cuprobe_nobody && chmod 755 /tmp/cuprobe_nobody
if command -v setpriv >/dev/null; then
  setpriv --reuid=65534 --regid=65534 --clear-groups /tmp/cuprobe_nobody sample --duration 1s -q
  echo "as uid 65534 rc=$?"
fi
echo "== list-metrics on the GPU"; "$cuprobe" sample --list-metrics | head -3
echo "== SIGINT ends cleanly"
"$cuprobe" sample --interval 10ms -o "$out/sigint.csv" -q & pid=$!
sleep 2; kill -INT $pid; wait $pid; echo "rc=$? lines=$(wc -l < "$out/sigint.csv")"; ls "$out" | grep partial
echo "== ncu cross-check (same cuBLAS bf16 GEMM kernel)"
ncu_bin=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
P=.avg.pct_of_peak_sustained_elapsed
launch=$(date +%s%N)
"$cuprobe" sample --interval 10ms -q -o "$out/gemm_ncu_metric.csv" \
  --metrics sm__pipe_tensor_cycles_active$P,sm__pipe_tensor_cycles_active_realtime$P -- "$loads" gemm 5
python3 "$here/sample_check.py" gemm-raw "$out/gemm_ncu_metric.csv" "$launch"
if [ -n "$ncu_bin" ]; then
  "$ncu_bin" --version | tail -1
  "$ncu_bin" --clock-control none --metrics sm__pipe_tensor_cycles_active$P,sm__pipe_tensor_op_hmma_cycles_active$P,gpu__time_duration.sum \
    --launch-skip 5 --launch-count 3 --csv "$loads" gemm-count 10 2>&1 | grep -E '"ID"|sm__|gpu__' | tee "$out/ncu.csv"
else
  echo "ncu not found"
fi
