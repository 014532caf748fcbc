#!/bin/bash
# The zoo on a GPU host: truth (3 processes per variant), torch.profiler traces (shapes,
# no shapes, stacks) and `cuprobe record` run files of every program (programs.json).
# usage: bench/gpu/zoo/run.sh OUT [zoo_run.py options: --phases truth,trace,record
#        --rounds 3 --deadline 540 --programs a,b --smoke]
#   ZOO_BIN: folder holding cuprobe, libcuprobe_inject.so and the shared libraries they
#   need that the host lacks (default: .carry/zoo in the repository); the host's CUPTI
#   and libnvperf are linked beside them here.
# Writes OUT/results/<program>/<variant>/{truth_N.json, shapes.json.gz, noshapes.json.gz,
# stack.json.gz, record.db.gz, record_whole.db.gz, *.log}, OUT/truth.json, OUT/env.json,
# OUT/jobs.json; prints the truth table last.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: run.sh OUT [options]}; shift
BIN=${ZOO_BIN:-$HERE/../../../.carry/zoo}
mkdir -p "$OUT"
if [ -x "$BIN/cuprobe" ]; then
  BIN=$(cd "$BIN" && pwd)
  for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64 /usr/local/cuda/lib; do
    for f in $d/libcupti.so* $d/libnvperf*; do
      [ -e "$f" ] && [ ! -e "$BIN/$(basename "$f")" ] && ln -s "$f" "$BIN/"
    done
  done
  LD_LIBRARY_PATH=$BIN:/usr/local/cuda/lib64 "$BIN/cuprobe" --version 2>&1 | head -2
else
  echo "no cuprobe in $BIN: records are skipped" >&2
fi
exec python3 "$HERE/zoo_run.py" "$OUT" --bin "$BIN" "$@"
