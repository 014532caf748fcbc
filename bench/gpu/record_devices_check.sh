#!/bin/bash
# Device numbering under `cuprobe record` when processes set their own
# CUDA_VISIBLE_DEVICES (as vLLM/SGLang workers do): one decode loop per GPU, each
# seeing its GPU as device 0. Prints kernels per pid and device, the devices table
# next to `nvidia-smi -L`, and counter samples per device.
# usage: bench/gpu/record_devices_check.sh BINDIR OUTDIR
set -u
BIN=$(cd "$1" && pwd); OUT=$2; mkdir -p "$OUT"
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
  for f in $d/libcupti.so* $d/libnvperf*; do [ -e "$f" ] && [ ! -e "$BIN/$(basename $f)" ] && ln -s "$f" "$BIN/"; done
done
q() { python3 -c "import sqlite3,sys; [print(' ', '|'.join(map(str,r))) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]" "$1" "$2"; }
n=$(nvidia-smi -L | wc -l); last=$((n - 1))
nvidia-smi -L
LOOP="python3 bench/gpu/record_decode_loop.py --steps 200"
jobs=""; for g in $(seq 0 $last); do jobs="$jobs CUDA_VISIBLE_DEVICES=$g $LOOP --tag gpu$g &"; done
"$BIN/cuprobe" record -f -o "$OUT/devices.cuprobe" -- bash -c "$jobs wait" > "$OUT/devices.log" 2>&1
echo "record rc=$? ($n GPUs, one loop per GPU, each with CUDA_VISIBLE_DEVICES=<its GPU>)"
echo "kernels per pid and device:"; q "$OUT/devices.cuprobe" "select pid, device, count(*) from kernels group by pid, device"
echo "devices table:"; q "$OUT/devices.cuprobe" "select id, name, uuid from devices order by id"
echo "counter samples per device (gr_active_pct mean):"
q "$OUT/devices.cuprobe" "select s.device, count(*), round(avg(s.value),1) from samples s join metrics m on m.id=s.metric_id where m.name='gr_active_pct' group by s.device"
echo "sample --gpu all on $n GPUs:"
"$BIN/cuprobe" sample --interval 10ms --duration 2s -o "$OUT/all.csv" 2>&1 | tail -2
python3 -c "import csv,collections,sys; print(' rows per gpu', dict(collections.Counter(r['gpu'] for r in csv.DictReader(open(sys.argv[1])))))" "$OUT/all.csv"
