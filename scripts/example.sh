#!/usr/bin/env bash
# Sets up, builds, and runs `cuprobe analyze` on a real trace bundled in the repo:
# an MLA decode that casts its whole FP8 KV pool to bf16 on every layer. Installs
# and builds only what cuprobe needs (the `cuprobe` target, not the tests: those
# and their packages are the test command's, scripts/test.sh); says how long the
# build took.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh release cuprobe
exec build/release/cuprobe analyze tests/data/mla_fp8pool_fullcast_small.json.gz "$@"
