#!/bin/bash
# GPU validation of `cuprobe record` (docs/validation.md, record section).
# usage: bench/gpu/record_validate.sh BINDIR OUTDIR [sections]
# BINDIR holds cuprobe and libcuprobe_inject.so; logs and a summary go to OUTDIR;
# the summary table is printed last.
set -u
BIN=$(cd "$1" && pwd); OUT=$2; SECTIONS=${3:-"overhead agree multi conflict kill sigint window profapi signal maxsize analyze"}
mkdir -p "$OUT"; T=/tmp/cuprobe-validate; rm -rf $T; mkdir -p $T
CP="$BIN/cuprobe"; PY=python3; LOOP=bench/gpu/record_decode_loop.py; CMP=bench/gpu/record_compare.py
export PYTHONUNBUFFERED=1
SUM=$OUT/summary.txt; : > $SUM; LOG=$OUT/log.txt; : > $LOG
line() { echo "$*" | tee -a $SUM; }
q() { sqlite3 "$1" "$2" 2>/dev/null || $PY -c "import sqlite3,sys; [print('|'.join(map(str,r))) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]" "$1" "$2"; }
# CUPTI next to the binary ($ORIGIN rpath), from wherever this host keeps it.
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee -a $OUT/env.txt
$CP --version >> $OUT/env.txt 2>&1 || ldd $CP | tee -a $OUT/env.txt
section() { echo "==== $*" >> $LOG; }
has() { [[ " $SECTIONS " == *" $1 "* ]]; }

if has overhead || has agree; then
  # Interleaved rounds so that drift hits every variant alike.
  for r in 1 2 3; do
    $PY $LOOP --tag plain >> $OUT/steps.jsonl 2>>$LOG
    $CP record -f -o $T/rec$r.cuprobe -- $PY $LOOP --tag cuprobe >> $OUT/steps.jsonl 2>>$LOG
    $CP record -f --api -o $T/api$r.cuprobe -- $PY $LOOP --tag cuprobe--api >> $OUT/steps.jsonl 2>>$LOG
    if [ $r = 3 ]; then TR="--trace $T/torch$r.json"; else TR=""; fi
    $PY $LOOP --mode torch-profiler $TR --tag torch-profiler >> $OUT/steps.jsonl 2>>$LOG
    if has graph; then
      $PY $LOOP --graph --tag plain-graph >> $OUT/steps.jsonl 2>>$LOG
      $CP record -f -o $T/grec$r.cuprobe -- $PY $LOOP --graph --tag cuprobe-graph >> $OUT/steps.jsonl 2>>$LOG
      $CP record -f --graphs whole -o $T/gwhole$r.cuprobe -- $PY $LOOP --graph --tag cuprobe-whole-graph >> $OUT/steps.jsonl 2>>$LOG
    fi
  done
  $PY - $OUT/steps.jsonl <<'PYEOF' | tee -a $SUM
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
by = {}
for r in rows: by.setdefault(r["tag"], []).append(r["median_ms"])
for tag in ("plain", "cuprobe", "cuprobe-no-subscribe", "cuprobe--api", "torch-profiler", "plain-graph", "cuprobe-graph", "cuprobe-whole-graph"):
    v = by.get(tag, [])
    if not v: continue
    base = statistics.median(by["plain-graph" if tag.endswith("graph") else "plain"])
    m = statistics.median(v)
    print(f"overhead  {tag:21s} step median {m:7.3f} ms (runs: {', '.join(f'{x:.3f}' for x in v)})  vs plain {((m/base)-1)*100:+6.2f}%")
PYEOF
fi
if has agree; then
  $PY $CMP $T/rec3.cuprobe $T/torch3.json > $OUT/agree.txt 2>&1; tail -1 $OUT/agree.txt | sed 's/^/agree     /' | tee -a $SUM
  if has graph; then
    line "wholegr   graph launches $(q $T/gwhole3.cuprobe 'select count(*) from graph_launches') kernels $(q $T/gwhole3.cuprobe 'select count(*) from kernels') notices: $(q $T/gwhole3.cuprobe 'select message from notices' | tr '\n' ';' | cut -c1-200)"
    line "graph     kernels with a graph id: $(q $T/grec3.cuprobe 'select count(*) from kernels where graph_id >= 0') of $(q $T/grec3.cuprobe 'select count(*) from kernels')"
  fi
  line "clock     $(q $T/rec3.cuprobe "select key||'='||value from metadata where key like 'clock_offset%' or key='counters'" | tr '\n' ' ')"
  line "counters  samples $(q $T/rec3.cuprobe 'select count(*) from samples') metrics $(q $T/rec3.cuprobe 'select group_concat(name) from metrics')"
  line "counters  per metric: $(q $T/rec3.cuprobe 'select m.name, count(*), round(avg(value),1) from samples s join metrics m on m.id=s.metric_id group by m.name' | tr '\n' ';')"
  line "counters  kernel span [$(q $T/rec3.cuprobe 'select min(start_ns)/1000000 % 100000, max(end_ns)/1000000 % 100000 from kernels')] ms, sample span [$(q $T/rec3.cuprobe 'select min(start_ns)/1000000 % 100000, max(end_ns)/1000000 % 100000 from samples')] ms"
  cp $T/api3.cuprobe $OUT/decode.cuprobe
  line "api       runtime ranges $(q $T/api3.cuprobe "select count(*) from ranges where kind='runtime'") kernels $(q $T/api3.cuprobe 'select count(*) from kernels')"
fi
if has multi; then
  $CP record -o $T/mp.cuprobe -- bash -c "$PY $LOOP --steps 100 --tag mp1 & $PY $LOOP --steps 100 --tag mp2 & wait" >> $LOG 2>&1
  line "multi     rc=$? per pid kernels: $(q $T/mp.cuprobe 'select pid, count(*) from kernels group by pid' | tr '\n' ' ') processes: $(q $T/mp.cuprobe 'select pid, ppid, substr(command,1,30), end_reason from processes' | tr '\n' ';')"
fi
if has conflict; then
  $CP record -o $T/conflict.cuprobe -- $PY $LOOP --mode torch-profiler --steps 50 --trace $T/conflict.json >> $LOG 2>&1
  line "conflict  rc=$? torch said: $(grep -a 'CUPTI initialization failed\|MULTIPLE_SUBSCRIBERS' $LOG | tail -1 | cut -c1-120)"
  line "conflict  kernels in run file $(q $T/conflict.cuprobe 'select count(*) from kernels'); torch trace kernels $($PY -c "import json;print(sum(1 for e in json.load(open('$T/conflict.json'))['traceEvents'] if e.get('cat')=='kernel'))" 2>&1 | tail -1); notices: $(q $T/conflict.cuprobe 'select message from notices' | tr '\n' ';')"
fi
if has conflict; then
  $CP record -o $T/first.cuprobe -- $PY bench/gpu/record_profiler_first.py >> $LOG 2>&1
  line "conflict2 rc=$? (torch.profiler first) $(grep -a 'torch.profiler saw' $LOG | tail -1); run file kernels $(q $T/first.cuprobe 'select count(*) from kernels'); notices: $(q $T/first.cuprobe 'select message from notices' | tr '\n' ';' | cut -c1-200)"
fi
if has kill; then
  $CP record -o $T/kill.cuprobe -- $PY $LOOP --kill-at 100 >> $LOG 2>&1
  line "kill      rc=$? status=$(q $T/kill.cuprobe "select value from metadata where key='status'") kernels=$(q $T/kill.cuprobe 'select count(*) from kernels') end: $(q $T/kill.cuprobe 'select end_reason from processes' | tr '\n' ';')"
fi
if has sigint; then
  set -m; $CP record -o $T/int.cuprobe -- $PY $LOOP --steps 5000 >> $LOG 2>&1 &
  CPID=$!; set +m; sleep 10; kill -INT $CPID; wait $CPID
  line "sigint    rc=$? status=$(q $T/int.cuprobe "select value from metadata where key='status'") kernels=$(q $T/int.cuprobe 'select count(*) from kernels') end: $(q $T/int.cuprobe 'select end_reason from processes' | tr '\n' ';')"
fi
if has window; then
  $CP record -o $T/win.cuprobe --delay 8s --duration 1s -- $PY $LOOP --steps 4000 >> $LOG 2>&1
  line "window    rc=$? kernels=$(q $T/win.cuprobe 'select count(*) from kernels') span_ms=$(q $T/win.cuprobe "select (max(k.start_ns)-min(k.start_ns))/1000000, (min(k.start_ns) - (select value from metadata where key='started_ns'))/1000000 from kernels k") (span, start after launch)"
fi
if has profapi; then
  $CP record -o $T/prof.cuprobe --capture cuda-profiler -- $PY $LOOP --profiler-api --steps 200 >> $LOG 2>&1
  line "profapi   rc=$? kernels=$(q $T/prof.cuprobe 'select count(*) from kernels') (200 steps; per-step count in the agree table) captures: $(q $T/prof.cuprobe 'select state, reason from captures' | tr '\n' ';')"
fi
if has signal; then
  $CP record -o $T/sig.cuprobe --capture signal -- $PY $LOOP --steps 4000 >> $LOG 2>&1 &
  CPID=$!; sleep 8; kill -USR1 $CPID; sleep 1; kill -USR1 $CPID; wait $CPID
  line "signal    rc=$? kernels=$(q $T/sig.cuprobe 'select count(*) from kernels') span_ms=$(q $T/sig.cuprobe 'select (max(start_ns)-min(start_ns))/1000000 from kernels')"
fi
if has maxsize; then
  $CP record -o $T/max.cuprobe --max-size 2MiB -- $PY $LOOP --steps 300 >> $LOG 2>&1
  line "maxsize   rc=$? size=$(stat -c %s $T/max.cuprobe) kernels=$(q $T/max.cuprobe 'select count(*) from kernels') losses: $(q $T/max.cuprobe 'select reason, count from losses' | tr '\n' ';')"
fi
if has analyze; then
  $CP analyze $OUT/decode.cuprobe > $T/analyze.txt 2>&1; A=$?; cat $T/analyze.txt >> $LOG; line "analyze   rc=$A ($(wc -l < $T/analyze.txt) lines)"
  $CP analyze --json $OUT/decode.cuprobe > $T/analyze.json 2>>$LOG; line "analyze   json rc=$? $(stat -c %s $T/analyze.json) bytes"
  $CP export --chrome $OUT/decode.cuprobe -o $T/decode.json >> $LOG 2>&1; line "export    rc=$? $(stat -c %s $T/decode.json 2>/dev/null) bytes"
fi
echo "==== summary"; cat $SUM
