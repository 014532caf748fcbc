#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang, ASan + UBSan; installs
# clang, libFuzzer and llvm-symbolizer when missing, through setup.sh), replays
# the committed regression inputs (fuzz/regressions/<target>/), then fuzzes each
# target for a bounded time from its seed corpus (docs/fuzzing.md).
# Exits non-zero when any target crashes, leaks, hangs or runs out of memory,
# after printing the reproducer's path and how to replay it.
#
# Environment: CUPROBE_FUZZ_SECONDS  seconds of fuzzing per target (default 45)
#              CUPROBE_FUZZ_TARGETS  the targets to run (default: all of them)
#              CUPROBE_FUZZ_TIMEOUT  seconds one input may take (default 30)
#              CUPROBE_FUZZ_RSS_MB   memory limit per target in MB (default 2048)
#              CUPROBE_FUZZ_SEED     libFuzzer's -seed (default: random; 1 under CI=true, so that a
#                                    CI run repeats what a developer ran before submitting)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phase.sh
seconds="${CUPROBE_FUZZ_SECONDS:-45}"
targets="${CUPROBE_FUZZ_TARGETS:-kineto_json kineto_window json_cursor rocprofv3_json run_file run_file_cells nsys_sqlite sse http_response http_request grpc_response bench_view tokenizer_json}"
timeout="${CUPROBE_FUZZ_TIMEOUT:-30}"
rss_mb="${CUPROBE_FUZZ_RSS_MB:-2048}"
seed="${CUPROBE_FUZZ_SEED:-}"
[[ -z $seed && ${CI:-} == true ]] && seed=1

echo "== fuzz: build" >&2
phase "build fuzz" bash scripts/setup.sh fuzz
bin=build/fuzz/fuzz
work=build/fuzz/run  # grown corpora stay between local runs; artifacts do not
rm -rf "$work/artifacts" "$work/logs" "$work/tmp"
mkdir -p "$work/logs" "$work/tmp"
export TMPDIR="$PWD/$work/tmp"  # the targets' scratch files; a crash leaves its own behind here
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
common=(-timeout="$timeout" -rss_limit_mb="$rss_mb")
[[ -n $seed ]] && common+=(-seed="$seed")

failed=()
report_failure() {  # target, log, what
  local target="$1" log="$2" what="$3"
  failed+=("$target")
  echo "fuzz: $target: $what; the report ends:" >&2
  grep -E '^(==[0-9]+==|SUMMARY|==FUZZ==|.*runtime error)' "$log" | head -5 | sed 's/^/  /' >&2 || true
  # The top frames in cuprobe's code: the readers' and the targets' own (not
  # the sanitizer's, libFuzzer's, libc's or fuzz/support's).
  grep -E '^ +#[0-9]+ .*(/src/|/fuzz/[a-z_]+_fuzz\.cpp)' "$log" | head -4 | sed 's/^ */    /' >&2 || true
  local reproducer
  reproducer="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)"
  if [[ -n $reproducer ]]; then
    echo "fuzz: $target: reproducer $reproducer" >&2
    echo "fuzz: $target: replay: $bin/fuzz_$target $reproducer   (full log: $log)" >&2
  else
    echo "fuzz: $target: full log: $log" >&2
  fi
}

# Replays every target's regression inputs, then fuzzes each target that passed them.
run_targets() {
  for t in $targets; do
    [[ -x $bin/fuzz_$t ]] || { echo "fuzz: no target '$t'" >&2; exit 2; }
    mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
    mapfile -t inputs < <(find "fuzz/regressions/$t" -type f ! -name '.*' 2>/dev/null | sort)
    if ((${#inputs[@]})); then
      echo "== fuzz: $t: replaying ${#inputs[@]} regression inputs" >&2
      log="$work/logs/$t.regressions.log"
      if ! "$bin/fuzz_$t" "${common[@]}" -artifact_prefix="$work/artifacts/$t/" "${inputs[@]}" >"$log" 2>&1; then
        report_failure "$t" "$log" "a regression input fails again"
        continue
      fi
    fi
  done

  for t in $targets; do
    [[ " ${failed[*]} " == *" $t "* ]] && continue
    seeds=()
    [[ -d fuzz/corpus/$t ]] && seeds+=("fuzz/corpus/$t")
    if [[ $t == run_file ]]; then
      mkdir -p "$work/seeds/$t"
      "$bin/fuzz_make_run_file" "$work/seeds/$t/sample.cuprobe"
      seeds+=("$work/seeds/$t")
    fi
    dict=()
    [[ $t == kineto_* || $t == json_cursor ]] && dict=(-dict=fuzz/kineto_json.dict)
    echo "== fuzz: $t: ${seconds}s" >&2
    log="$work/logs/$t.log"
    if "$bin/fuzz_$t" "${common[@]}" "${dict[@]}" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$t/" "$work/corpus/$t" "${seeds[@]}" >"$log" 2>&1; then
      runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
      cov="$(grep -Eo 'cov: [0-9]+' "$log" | tail -1)"
      echo "fuzz: $t: ok, ${runs:-?} inputs, $cov" >&2
    else
      report_failure "$t" "$log" "found a crash, leak, hang or out-of-memory"
    fi
  done
}
phase fuzz run_targets

if ((${#failed[@]})); then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: all targets ok" >&2
