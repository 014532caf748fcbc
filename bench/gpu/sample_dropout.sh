#!/usr/bin/env bash
# Which metric sets show "dropout" samples (the tensor counter reads ~0 for a sample
# while the bf16 GEMM load keeps the SMs busy): one GEMM run per set, one table.
# Needs a GPU, cuprobe and sample_loads (see sample_validate.sh).
#   bench/gpu/sample_dropout.sh CUPROBE SAMPLE_LOADS OUTDIR
set -uo pipefail
cuprobe=$1 loads=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; : > "$out/dropout.jsonl"
P=.avg.pct_of_peak_sustained_elapsed
base=sm__cycles_active$P,sm__pipe_tensor_cycles_active_realtime$P
T=TPC.TriageCompute.sm__
declare -A sets=(
  [base]=$base
  [base+gr]=$base,gr__cycles_active$P
  [base+tpc]=$base,${T}pipe_tensor_op_hmma_cycles_active_realtime$P,${T}pipe_tensor_op_imma_cycles_active_realtime$P,${T}inst_executed_pipe_fma_realtime$P
  [base+dram]=$base,dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second,dram__throughput$P,dram__read_throughput$P,dram__write_throughput$P
  [base+pcie]=$base,pcie__read_bytes.sum.per_second,pcie__write_bytes.sum.per_second
  [base+hmma]=$base,sm__pipe_tensor_op_hmma_cycles_active_realtime$P
  [no-tpc]=$base,gr__cycles_active$P,dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second,dram__throughput$P,dram__read_throughput$P,dram__write_throughput$P,pcie__read_bytes.sum.per_second,pcie__write_bytes.sum.per_second
)
one() {  # NAME INTERVAL [sample options]
  local name=$1 iv=$2; shift 2
  "$cuprobe" sample -q --gpu 0 --interval "$iv" -o "$out/$name-$iv.csv" "$@" -- "$loads" gemm 5 > /dev/null
  python3 "$here/sample_dropout.py" "$name" "$iv" "$out/$name-$iv.csv" | tee -a "$out/dropout.jsonl"
}
for name in ${SETS:-base base+gr base+tpc base+dram base+pcie base+hmma no-tpc}; do one "$name" 10ms --metrics "${sets[$name]}"; done
for iv in ${TRIAGE_INTERVALS:-10ms 100ms 1ms}; do one triage "$iv"; done
