#!/usr/bin/env bash
# After a change that touches recording, sampling or the install layout: the
# README captures, the known-load sampler checks, the record validation sections
# that exercise the wire format end to end, and the installed binary recording.
#   bench/gpu/round_check.sh BINDIR PREFIX OUT
# BINDIR: build/release's cuprobe and libcuprobe_inject.so (plus libsqlite3.so.0);
# PREFIX: a `cmake --install` prefix of the same build (libsqlite3.so.0 in bin/).
set -uo pipefail
bin=$(cd "$1" && pwd) prefix=$(cd "$2" && pwd) out=$3
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvcc -O2 -arch=sm_90 "$here/sample_loads.cu" -o /tmp/sample_loads -lcublas || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/env.txt"
"$bin/cuprobe" --version | tee -a "$out/env.txt"

echo "== readme capture"
bash "$here/readme_capture.sh" "$bin" /tmp/sample_loads "$out" > /dev/null
echo "== sample known loads"
bash "$here/sample_quick_check.sh" "$bin/cuprobe" /tmp/sample_loads /tmp/quick 2>&1 | tee "$out/sample_quick.txt"
echo "== record validation"
bash "$here/record_validate.sh" "$bin" "$out/record" "agree kill sigint window analyze" > /dev/null 2>&1
cat "$out/record/summary.txt"
echo "== installed binary"
LD_LIBRARY_PATH= "$prefix/bin/cuprobe" --version 2>&1 | tee "$out/installed.txt"
LD_LIBRARY_PATH= "$prefix/bin/cuprobe" record -f -o /tmp/installed.cuprobe -- \
  python3 "$here/record_decode_loop.py" --steps 50 --tag installed >> "$out/installed.txt" 2>&1
echo "record exit $?" | tee -a "$out/installed.txt"
LD_LIBRARY_PATH= "$prefix/bin/cuprobe" analyze /tmp/installed.cuprobe 2>&1 | head -8 | tee -a "$out/installed.txt"
