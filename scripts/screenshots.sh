#!/usr/bin/env bash
# The README's pictures of `cuprobe report`: real reports of tests/data traces
# and of a bench run against the test streaming server
# (bench/load_stream_server_bench), one screenshot per section
# (report.html?only=SECTION), in docs/images/report-SECTION.png.
#   bash scripts/screenshots.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
cuprobe="$build/cuprobe"
server_bin="$build/bench/load_stream_server_bench"
for b in "$cuprobe" "$server_bin"; do
  [[ -x "$b" ]] || { echo "missing $b (cmake --build --preset release --target cuprobe load_stream_server_bench)" >&2; exit 2; }
done
chromium="$(command -v chromium || command -v chromium-browser || true)"
[[ -n "$chromium" ]] || { echo "no chromium (scripts/setup.sh installs it)" >&2; exit 2; }
work="$(mktemp -d)"
server_pid=""
trap '[[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
data=tests/data

"$server_bin" --ttft-us 3000 --itl-us 1500 >"$work/port" 2>/dev/null &
server_pid=$!
for _ in $(seq 50); do [[ -s "$work/port" ]] && break; sleep 0.1; done
"$cuprobe" bench "http://127.0.0.1:$(head -1 "$work/port")" -c 8 -n 400 --output-len 64 --json -q \
  --save-requests "$work/requests.jsonl" >"$work/result.json"

"$cuprobe" report -o "$work/trace.html" "$data/h200_pool_gather_expanded_index.json.gz" \
  --bench "$work/result.json" --requests "$work/requests.jsonl"
"$cuprobe" report -o "$work/ranks.html" "$data/tp2_mlp_decode_rank0.json.gz" "$data/tp2_mlp_decode_rank1.json.gz"
"$cuprobe" report -o "$work/bench.html" --bench "$work/result.json" --requests "$work/requests.jsonl"
"$cuprobe" report -o "$work/baseline.html" "$data/mla_fp8pool_gathercast_small.json.gz" \
  --baseline "$data/mla_fp8pool_fullcast_small.json.gz"

mkdir -p docs/images
shot() {  # page section height [picture name]
  local name="${4:-$2}"
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size="1280,$3" --screenshot="docs/images/report-$name.png" "file://$work/$1.html?only=$2" 2>/dev/null
  echo "docs/images/report-$name.png" >&2
}
shot trace header 160
shot trace headline 480
shot trace findings 520
shot ranks steps 700
shot trace tables 900
shot trace timeline 460
shot ranks headline 280 ranks-headline
shot ranks ranks 700
shot trace bench 1500
shot bench headline 300 bench-headline
shot baseline baseline 720
