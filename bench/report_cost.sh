#!/usr/bin/env bash
# What `cuprobe report` costs against `cuprobe analyze` of the same input (the
# issue asks for at most 3x), and the page's size (at most 5 MB): CPU seconds
# (user + sys) of each, the median of RUNS interleaved runs.
#   bash bench/report_cost.sh [TRACE] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
trace="${1:-../shared/traces/llama_bs4_decode_big.json.xz}"
runs="${2:-3}"
cuprobe=build/release/cuprobe
[[ -x $cuprobe ]] || { echo "missing $cuprobe (bash scripts/setup.sh release)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cpu() {  # prints the CPU seconds (user + sys) the command used
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_utime + r.ru_stime:.3f}")' "$@"
}
analyze=() report=()
for _ in $(seq "$runs"); do
  analyze+=("$(cpu "$cuprobe" analyze "$trace")")
  report+=("$(cpu "$cuprobe" report -o "$work/report.html" "$trace")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
a=$(median "${analyze[@]}") r=$(median "${report[@]}")
size=$(stat -c %s "$work/report.html")
echo "input:   $trace"
echo "analyze: ${a} s CPU (median of $runs)"
awk -v r="$r" -v a="$a" -v s="$size" -v n="$runs" 'BEGIN {
  printf "report:  %s s CPU (median of %d), page %.2f MB (limit 5 MB)\n", r, n, s / 1e6
  printf "ratio:   %.2fx (limit 3x)\n", r / a }' 
