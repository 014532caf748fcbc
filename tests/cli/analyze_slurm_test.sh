#!/usr/bin/env bash
# docs/analyze-ranks.md's Slurm recipe under the real scheduler (issue 37, item 3): a one-node Slurm cluster of
# its own (slurmctld, slurmd and munged as this script's children, on private ports and a private munge socket,
# every file in one temp dir), a batch job that runs the recipe as written (srun, one task per node, each writes
# `analyze --summary` of the traces it holds; then `analyze` of the summaries), and a second srun of one task per
# rank (-N1 -n2). Both cross-rank answers must equal `analyze` of the traces themselves (the paths aside).
#   analyze_slurm_test.sh CUPROBE RANK0_TRACE RANK1_TRACE
# Exit 77 (ctest: skipped) only when Slurm's daemons are not installed (scripts/setup.sh installs slurm-wlm).
# The daemons are stopped and the temp dir removed however the script ends.
set -euo pipefail
cuprobe=$(realpath "$1")
rank_traces=("${@:2}")
PATH="$PATH:/usr/sbin:/sbin"  # slurmctld, slurmd and munged live in sbin
for tool in slurmctld slurmd srun sbatch squeue scancel sinfo; do
  if ! command -v "$tool" > /dev/null; then
    echo "SKIPPED: $tool is not installed (Debian: apt-get install --no-install-recommends slurm-wlm)"
    exit 77
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-slurm.XXXXXX")
chmod 755 "$tmp"  # munged wants its socket's directories searchable by all
daemons=()        # PIDs of the daemons started below, stopped in this order's reverse
export SLURM_CONF="$tmp/slurm.conf"
fail() {
  echo "FAILED: $*" >&2
  exit 1
}
cleanup() {
  local status=$? pid i
  set +e
  if ((${#daemons[@]})); then
    # The jobs first (their slurmstepd would outlive slurmd), then the daemons, newest first.
    squeue -h -o %i 2> /dev/null | xargs -r scancel 2> /dev/null
    for ((i = 0; i < 50; ++i)); do
      [[ -z $(squeue -h -o %i 2> /dev/null) ]] && break
      sleep 0.2
    done
    for ((i = ${#daemons[@]} - 1; i >= 0; --i)); do
      pid=${daemons[i]}
      kill -TERM "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
    done
  fi
  if ((status != 0)); then
    for log in "$tmp"/log/*; do
      [[ -f $log ]] && { echo "--- $log (last lines)" >&2; tail -n 15 "$log" >&2; }
    done
  fi
  # Nothing of this cluster may be left running: no process with this SLURM_CONF in its environment.
  local left conf=$SLURM_CONF
  export -n SLURM_CONF  # the scan's own processes must not carry it
  left=$(grep -l -s -a -F "SLURM_CONF=$conf" /proc/[0-9]*/environ | grep -v -e "^/proc/$$/" -e "^/proc/self/" \
         -e "^/proc/thread-self/")
  if [[ -n $left ]]; then
    echo "FAILED: processes of the test cluster are still running: $left" >&2
    status=1
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$tmp"/{state,spool,log,munge,shared,traces}

# Two free ports on the loopback for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# Authentication: a private munged (its own key and socket), as a real cluster authenticates; where munge is not
# installed, Slurm 22.05's auth/none (any local process could then talk to these daemons while the test runs).
if command -v munged > /dev/null; then
  chmod 700 "$tmp/munge"
  head -c 1024 /dev/urandom > "$tmp/munge/key"
  chmod 600 "$tmp/munge/key"
  munged --foreground --socket="$tmp/munge.sock" --key-file="$tmp/munge/key" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" > "$tmp/log/munged.out" 2>&1 &
  daemons+=($!)
  for ((i = 0; i < 50; ++i)); do
    [[ -S $tmp/munge.sock ]] && break
    sleep 0.1
  done
  [[ -S $tmp/munge.sock ]] || fail "munged did not create its socket"
  auth="AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge"
else
  auth="AuthType=auth/none
CredType=cred/none"
fi

user=$(id -un)
cat > "$SLURM_CONF" << EOF
ClusterName=cuprobetest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
$auth
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc)
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i > "$tmp/log/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D -N localhost > "$tmp/log/slurmd.out" 2>&1 &
daemons+=($!)
state=""
for ((i = 0; i < 150; ++i)); do
  state=$(sinfo -h -n localhost -o %t 2> /dev/null || true)
  [[ $state == idle ]] && break
  sleep 0.2
done
[[ $state == idle ]] || fail "the one-node cluster did not come up (node state '$state' after 30 s)"

# The traces as a node holds them: one directory of rank files.
for r in "${!rank_traces[@]}"; do cp "${rank_traces[r]}" "$tmp/traces/rank$r.json.gz"; done
export CUPROBE="$cuprobe" SHARED="$tmp/shared" TRACES="$tmp/traces"

# The batch script: docs/analyze-ranks.md's recipe (cuprobe, /shared and /local/traces as variables), then the same
# with one task per rank, each task summarising its own rank's trace.
cat > "$tmp/job.sh" << 'EOF'
#!/bin/bash
set -euo pipefail
mkdir -p "$SHARED/$SLURM_JOB_ID"
srun --nodes="$SLURM_JOB_NUM_NODES" --ntasks="$SLURM_JOB_NUM_NODES" --ntasks-per-node=1 bash -c \
  '"$CUPROBE" analyze --summary "$SHARED/$SLURM_JOB_ID/node$SLURM_NODEID.json" "$TRACES" > /dev/null'
"$CUPROBE" analyze --json "$SHARED/$SLURM_JOB_ID"/node*.json > "$SHARED/by_node.json"

mkdir -p "$SHARED/$SLURM_JOB_ID/ranks"
srun -N1 -n2 bash -c '"$CUPROBE" analyze --summary "$SHARED/$SLURM_JOB_ID/ranks/rank$SLURM_PROCID.json" \
  "$TRACES/rank$SLURM_PROCID.json.gz" > /dev/null && echo "task $SLURM_PROCID of $SLURM_NTASKS on node $SLURM_NODEID"'
"$CUPROBE" analyze --json "$SHARED/$SLURM_JOB_ID"/ranks/rank*.json > "$SHARED/by_rank.json"
echo "job $SLURM_JOB_ID done"
EOF
timeout 180 sbatch --wait --quiet -N1 -n2 --output="$tmp/job.out" "$tmp/job.sh" ||
  { cat "$tmp/job.out" >&2; fail "the batch job failed (its output above)"; }
cat "$tmp/job.out"
if ! grep -q "^task 0 of 2 on node 0$" "$tmp/job.out" || ! grep -q "^task 1 of 2 on node 0$" "$tmp/job.out"; then
  fail "srun -N1 -n2 did not run two tasks"
fi
# One task per node: a second task on the node would write the same node file (srun in a job of -n2 runs 2 tasks
# unless told --ntasks; --ntasks-per-node=1 alone is ignored with a warning).
[[ $(grep -c "summary of 2 rank(s) to .*/node0.json" "$tmp/job.out") -eq 1 ]] ||
  fail "the one-task-per-node srun ran more than one task on the node"
job_dirs=("$tmp"/shared/[0-9]*)
[[ ${#job_dirs[@]} -eq 1 && -f ${job_dirs[0]}/node0.json && -f ${job_dirs[0]}/ranks/rank1.json ]] ||
  fail "no summaries under the job's id in $tmp/shared"

"$cuprobe" analyze --json "$TRACES"/rank*.json.gz > "$tmp/traces.json"
python3 - "$tmp/traces.json" "$tmp/shared/by_node.json" "$tmp/shared/by_rank.json" << 'EOF'
import json, sys
def cross_rank(path):
    c = json.load(open(path))["cross_rank"]
    for r in c["ranks"]:
        r.pop("file")  # the paths given differ
    return c
want = cross_rank(sys.argv[1])
assert len(want["ranks"]) == 2 and want["matched_calls"] > 0 and want["straggler"] is not None, want
for path in sys.argv[2:]:
    got = cross_rank(path)
    if got != want:
        sys.exit(f"FAILED: the cross-rank answer of the summaries ({path}) differs from the traces':\n"
                 f"{json.dumps(got)[:2000]}\nvs\n{json.dumps(want)[:2000]}")
print(f"the summaries written under Slurm give the traces' cross-rank answer: {want['matched_calls']} calls matched, "
      f"straggler rank {want['straggler']['rank']}")
EOF
