#!/usr/bin/env bash
# How many streamed chunks per second one client core sustains: cuprobe bench
# against a simple Python asyncio client (stdlib only), same server, same load.
# The server (bench/load_stream_server_bench) runs on core 1, each client on
# core 0 (taskset). Prints both clients' figures side by side:
#   chunks/s achieved, CPU seconds the client used, CPU per chunk, and
#   chunks per CPU-second (what one fully busy core could take).
# usage: bench/load_client_throughput.sh [BUILD_DIR] [CONCURRENCY] [REQUESTS] [TOKENS] [ITL_US]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
concurrency="${2:-128}"
requests="${3:-1500}"
tokens="${4:-256}"
itl_us="${5:-1000}"
server_bin="$build/bench/load_stream_server_bench"
cuprobe_bin="$build/cuprobe"
for b in "$server_bin" "$cuprobe_bin"; do
  [[ -x "$b" ]] || { echo "missing $b (build the project first: bash scripts/setup.sh release)" >&2; exit 2; }
done
pin_server=(); pin_client=()
if command -v taskset >/dev/null && (( $(nproc) >= 2 )); then
  pin_server=(taskset -c 1); pin_client=(taskset -c 0)
fi

port_file="$(mktemp)"
"${pin_server[@]}" "$server_bin" --itl-us "$itl_us" --ttft-us 1000 >"$port_file" 2>/dev/null &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; rm -f "$port_file"' EXIT
for _ in $(seq 50); do [[ -s "$port_file" ]] && break; sleep 0.1; done
port="$(cat "$port_file")"

# CPU seconds (user+sys) of a command, from /proc/self/stat of a wrapper shell.
cpu_of() {
  python3 - "$@" <<'PY'
import os, subprocess, sys
before = os.times()
out = subprocess.run(sys.argv[1:], capture_output=True, text=True)
after = os.times()
cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
sys.stdout.write(out.stdout)
sys.stderr.write(out.stderr)
print("cpu_s=%.2f" % cpu)
sys.exit(out.returncode)
PY
}

cuprobe_out="$(cpu_of "${pin_client[@]}" "$cuprobe_bin" bench "http://127.0.0.1:$port" -c "$concurrency" -n "$requests" \
               --output-len "$tokens" --input-len 16 --json -q)"
cuprobe_cpu="$(printf '%s\n' "$cuprobe_out" | sed -n 's/^cpu_s=//p')"
cuprobe_json="$(printf '%s\n' "$cuprobe_out" | sed '/^cpu_s=/d')"

python_requests=$(( requests / 2 ))
python_out="$(cpu_of "${pin_client[@]}" python3 bench/load_asyncio_client.py 127.0.0.1 "$port" "$concurrency" \
              "$python_requests" "$tokens")"

echo "load: closed loop, concurrency $concurrency, $tokens tokens/request, server ITL ${itl_us} us;" \
     "client on core 0, server on core 1 (when there are 2+ cores)"
python3 - "$cuprobe_json" "$cuprobe_cpu" "$python_out" <<'PY'
import json, re, sys
report, cuprobe_cpu, python_out = json.loads(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
fields = dict(re.findall(r"(\w+)=([\d.]+)", python_out))
rows = [("cuprobe bench (C++ epoll)", report["all"]["chunks_per_s"] * report["all"]["duration_s"],
         report["all"]["chunks_per_s"], cuprobe_cpu),
        ("python asyncio (stdlib)", float(fields["chunks"]), float(fields["chunks_per_s"]), float(fields["cpu_s"]))]
print("%-26s %10s %10s %8s %13s %14s" % ("client", "chunks", "chunks/s", "CPU s", "CPU us/chunk", "chunks/CPU-s"))
for name, chunks, rate, cpu in rows:
    print("%-26s %10.0f %10.0f %8.2f %13.2f %14.0f" % (name, chunks, rate, cpu, cpu * 1e6 / chunks, chunks / cpu))
PY
