# Sourced by the CI scripts. phase NAME COMMAND...: runs COMMAND and, when
# CUPROBE_PHASE_LOG names a file (.ci/run sets it), appends one line to it:
# NAME, TAB, the wall seconds, TAB, the exit status. .ci/run prints them all
# at its end.
phase() {
  local name="$1" start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  if [[ -n ${CUPROBE_PHASE_LOG:-} ]]; then
    printf '%s\t%s\t%s\n' "$name" "$((SECONDS - start))" "$rc" >> "$CUPROBE_PHASE_LOG"
  fi
  return "$rc"
}
