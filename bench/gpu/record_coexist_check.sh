#!/usr/bin/env bash
# torch.profiler started inside a recorded process (bench/gpu/record_profiler_later.py):
# by default cuprobe hands CUPTI over (torch.profiler sees GPU events, cuprobe keeps the
# kernels from before and says so); with --keep-cupti cuprobe records everything and
# torch.profiler is refused (and cuprobe says so).
#   bench/gpu/record_coexist_check.sh BINDIR OUT
set -uo pipefail
BIN=$(cd "$1" && pwd) out=$2
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
fails=0
for mode in handover keep; do
  opt=(); [ $mode = keep ] && opt=(--keep-cupti)
  "$BIN/cuprobe" record -f --no-counters "${opt[@]}" -o "$out/$mode.cuprobe" -- python3 "$here/record_profiler_later.py" \
    > "$out/$mode.json" 2> "$out/$mode.log"
  echo "rc $? ($mode)" >> "$out/$mode.log"
  python3 - "$mode" "$out/$mode.json" "$out/$mode.cuprobe" "$out/$mode.log" <<'PY' || fails=$((fails + 1))
import json, sqlite3, sys
mode, truth, run, log = sys.argv[1:5]
seen = json.loads(open(truth).read().strip().splitlines()[-1])["torch_profiler_gpu_events"]
db = sqlite3.connect(run)
kernels = db.execute("select count(*) from kernels").fetchone()[0]
notices = [m for (m,) in db.execute("select message from notices")]
said = [m for m in notices if "asked for CUPTI" in m]
# 2 kernels (GEMM, scale) per step: 50 steps before the profiler, 20 inside, 30 after.
if mode == "handover":
    ok = seen > 0 and 100 <= kernels < 140 and any("handed over" in m for m in said)
else:
    ok = seen == 0 and kernels >= 200 and any("refused" in m for m in said)
print(f"{'PASS' if ok else 'FAIL'}  {mode}: torch.profiler saw {seen} GPU events; cuprobe recorded {kernels} kernels; "
      f"notice: {said[0] if said else 'none'}")
sys.exit(0 if ok else 1)
PY
done
grep -h "cuprobe record:" "$out"/*.log | head -8
echo "failures: $fails"
exit $((fails > 0))
