#!/usr/bin/env bash
# Held-out evidence for the findings (docs/findings.md): real PyTorch programs
# on the GPU, traced by torch.profiler, with the truth measured by CUDA events in
# separate processes (no profiler). Writes OUT/findings_traces.tar with
# pool_<spelling>.json.gz, pool_graph.json.gz, generate4.json.gz and truth.jsonl.
# Then, on any machine: cuprobe analyze OUT/pool_index.json.gz …
#   bench/gpu/findings_check.sh OUT
set -uo pipefail
out=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$work/gpu.txt"
python3 -c 'import torch, transformers; print("torch", torch.__version__, "transformers", transformers.__version__)' | tee -a "$work/gpu.txt"
for s in index index_select gather take index2d; do
  python3 "$here/pool_gather.py" "$s" truth - >> "$work/truth.jsonl" || echo "{\"spelling\": \"$s\", \"error\": \"truth failed\"}" >> "$work/truth.jsonl"
  python3 "$here/pool_gather.py" "$s" trace "$work/pool_$s.json" && gzip -9 "$work/pool_$s.json"
done
python3 "$here/pool_gather.py" index graph "$work/pool_graph.json" >> "$work/truth.jsonl" && gzip -9 "$work/pool_graph.json"
python3 "$here/generate_loop.py" truth - 4 32 >> "$work/truth.jsonl"
python3 "$here/generate_loop.py" trace "$work/generate4.json" 4 32 && gzip -9 "$work/generate4.json"
cat "$work/truth.jsonl"
ls -la "$work"
tar -C "$work" -cf "$out/findings_traces.tar" .
