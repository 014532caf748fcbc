#!/usr/bin/env bash
# A torchrun job of N processes recorded into one run file, analyzed per rank:
# each process must be its own rank (from RANK), with its own kernels, its
# all-reduces as communication, and the counters of its GPU.
#   bench/gpu/record_ranks_check.sh BINDIR OUT [NPROC]
# On a 2-GPU host the ranks use NCCL on one GPU each; on one GPU they share it
# and all-reduce through gloo (the recording path is the same).
set -uo pipefail
bin=$(cd "$1" && pwd) out=$2 nproc=${3:-2}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
run="$out/ranks.cuprobe"
"$bin/cuprobe" record -f -o "$run" -- python3 -m torch.distributed.run --standalone --nproc-per-node "$nproc" \
  "$here/record_tp_mlp.py" --steps 200 2>&1 | tee "$out/record.txt"
echo "record exit ${PIPESTATUS[0]}"
"$bin/cuprobe" analyze "$run" > "$out/analyze.txt" 2>&1
echo "analyze exit $?"
head -40 "$out/analyze.txt"
"$bin/cuprobe" analyze --json "$run" > "$out/analyze.json" 2> /dev/null
python3 - "$out/analyze.json" "$nproc" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
nproc = int(sys.argv[2])
ranks = doc["ranks"]
ok = len(ranks) == nproc
print(f"ranks: {len(ranks)} (expected {nproc}) {'ok' if ok else 'WRONG'}")
for r in ranks:
    cats = {c["category"]: c["time_ms"] for c in r.get("categories", [])}
    print(f"  rank {r.get('rank')}: file {r.get('file')}, gpu busy {r.get('gpu_busy_ms', '?')} ms, "
          f"categories {json.dumps(cats)[:300]}")
PY
