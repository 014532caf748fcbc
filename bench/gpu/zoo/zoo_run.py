#!/usr/bin/env python3
"""Runs the zoo (programs.json) on a GPU host: truth, torch.profiler traces and
`cuprobe record` run files of every program and variant; writes OUT/results/... and
OUT/truth.json. Called by run.sh (README.md says how).

Truth and trace phases start all their processes at once: each imports torch, says it
is ready, and waits on an fcntl.flock of one lock file (ZOO_LOCK, zoo_harness.py) that
this driver holds until every process is ready; then they take the GPU one at a time
while the others sleep in flock, so nothing but the measured process runs. Records run
one at a time under the same lock (zoo_lock.py around `cuprobe record`: its counter
sampling is device-wide). Phases run one after the other (truth rounds, traces,
records); no process takes the GPU past --deadline (it exits 3: skipped).
"""
import argparse
import concurrent.futures as cf
import fcntl
import gzip
import json
import os
import shutil
import subprocess
import sys
import time

from zoo_collect import program_truth, variant_truth

HERE = os.path.dirname(os.path.abspath(__file__))


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception as e:  # noqa: BLE001
        return f"({e})"


def environment():
    torch_v = sh(f"{sys.executable} -c 'import torch; print(torch.__version__, torch.version.cuda)'")
    tf_v = sh(f"{sys.executable} -c 'import transformers; print(transformers.__version__)' 2>/dev/null")
    return {"date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "gpu": sh("nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader"),
            "torch_cuda": torch_v, "transformers": tf_v, "python": sys.version.split()[0],
            "cpus": os.cpu_count(), "kernel": sh("uname -r")}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--phases", default="truth,trace,record")
    p.add_argument("--rounds", type=int, default=3, help="truth processes per variant")
    p.add_argument("--deadline", type=float, default=540, help="seconds: no job starts after this")
    p.add_argument("--programs", default="", help="comma-separated subset")
    p.add_argument("--bin", default="", help="folder with cuprobe and libcuprobe_inject.so")
    p.add_argument("--smoke", action="store_true",
                   help="every mode with tiny step counts, in parallel, without the lock (correctness only)")
    p.add_argument("--job-timeout", type=float, default=240)
    p.add_argument("--record-modes", default="graphs",
                   help="comma list: 'graphs' (each of the program's --graphs modes: record.db, record_whole.db), "
                        "'api' (its first graph mode with --api: record_api.db)")
    p.add_argument("--manifest", default=os.path.join(HERE, "programs.json"), help="programs and their files "
                   "(relative to the manifest's folder)")
    a = p.parse_args()

    start = time.time()
    a.out = os.path.abspath(a.out)
    a.bin = os.path.abspath(a.bin) if a.bin else ""
    manifest = json.load(open(a.manifest))
    pdir = os.path.dirname(os.path.abspath(a.manifest))
    progs = manifest["programs"]
    if a.programs:
        keep = set(a.programs.split(","))
        progs = [x for x in progs if x["name"] in keep]
    res = os.path.join(a.out, "results")
    os.makedirs(res, exist_ok=True)
    lock = os.path.join(a.out, "gpu.lock")
    open(lock, "a").close()
    env_info = environment()
    json.dump(env_info, open(os.path.join(a.out, "env.json"), "w"), indent=1)
    print(json.dumps(env_info), flush=True)
    py = sys.executable
    cuprobe = os.path.join(a.bin, "cuprobe") if a.bin else ""
    events = []

    def job(phase, prog, variant, tag, argv, locked, quick):
        """locked: "inner" (the harness takes the lock after import torch), "outer" (the
        whole command runs under zoo_lock.py) or False."""
        d = os.path.join(res, prog["name"], variant)
        os.makedirs(d, exist_ok=True)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.pop("ZOO_LOCK", None)
        if locked == "outer":
            argv = [py, os.path.join(HERE, "zoo_lock.py"), lock] + argv
        elif locked:
            env["ZOO_LOCK"] = lock
        if quick:
            env["ZOO_QUICK"] = "1"
        if phase == "record":  # cuprobe's shared libraries (run.sh links the host's CUPTI beside it)
            env["LD_LIBRARY_PATH"] = ":".join(x for x in (a.bin, "/usr/local/cuda/lib64",
                                                          os.environ.get("LD_LIBRARY_PATH", "")) if x)
        return dict(phase=phase, prog=prog["name"], variant=variant, tag=tag, argv=argv, env=env, dir=d)

    def run_job(j):
        if time.time() - start > a.deadline:
            return dict(j, rc=None, skipped=True, secs=0)
        t = time.time()
        log = os.path.join(j["dir"], f"{j['tag']}.log")
        with open(log, "w") as f:
            try:
                rc = subprocess.run(j["argv"], env=j["env"], stdout=f, stderr=subprocess.STDOUT, cwd=pdir,
                                    timeout=a.job_timeout).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
        return dict(j, rc=rc, skipped=False, secs=round(time.time() - t, 1))

    def run_gated(jobs):
        """Start every job at once; each imports torch, says so (ZOO_READY_DIR) and waits
        for the lock, which this process holds until all are ready: then they take the
        GPU one at a time while the others sleep in flock."""
        ready = os.path.join(a.out, "ready")
        shutil.rmtree(ready, ignore_errors=True)
        os.makedirs(ready)
        gate = open(lock, "a+")
        fcntl.flock(gate.fileno(), fcntl.LOCK_EX)
        procs = []
        for j in jobs:
            if time.time() - start > a.deadline:
                procs.append((j, None, None, 0))
                continue
            env = dict(j["env"], ZOO_READY_DIR=ready, ZOO_DEADLINE=str(start + a.deadline))
            log = open(os.path.join(j["dir"], f"{j['tag']}.log"), "w")
            procs.append((j, subprocess.Popen(j["argv"], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=pdir),
                          log, time.time()))
        live = [p for _, p, _, _ in procs if p]
        t = time.time()
        while len(os.listdir(ready)) < len(live) and time.time() - t < 120 and any(p.poll() is None for p in live):
            time.sleep(0.2)
        print(f"  {len(os.listdir(ready))}/{len(live)} processes ready after {time.time() - t:.0f}s", flush=True)
        gate.close()  # the GPU is theirs now
        done = []
        for j, p, log, t0 in procs:
            if p is None:
                done.append(dict(j, rc=None, skipped=True, secs=0))
                continue
            try:
                rc = p.wait(timeout=max(1.0, start + a.deadline + a.job_timeout - time.time()))
            except subprocess.TimeoutExpired:
                p.kill()
                rc = "timeout"
            log.close()
            done.append(dict(j, rc=rc, skipped=rc == 3, secs=round(time.time() - t0, 1)))
        return done

    def run_phase(name, jobs, parallel):
        t = time.time()
        if parallel == "gated":
            done = run_gated(jobs)
        else:
            with cf.ThreadPoolExecutor(max_workers=parallel) as ex:
                done = list(ex.map(run_job, jobs))
        for d in done:
            d.pop("env", None)
            events.append(d)
            status = "skipped (deadline)" if d["skipped"] else f"rc={d['rc']} {d['secs']}s"
            if d["skipped"] or d["rc"] != 0:
                print(f"  {name} {d['prog']}/{d['variant']} {d['tag']}: {status}", flush=True)
        print(f"phase {name}: {len(jobs)} jobs in {time.time() - t:.0f}s (total {time.time() - start:.0f}s)",
              flush=True)

    phases = a.phases.split(",")
    if "truth" in phases:
        jobs = []
        for r in range(a.rounds):
            order = progs if r % 2 == 0 else progs[::-1]
            for prog in order:
                for v in prog["variants"]:
                    out = os.path.join(res, prog["name"], v, f"truth_{r}.json")
                    argv = [py, prog["file"], "--variant", v, "--mode", "truth", "--out", out]
                    jobs.append(job("truth", prog, v, f"truth_{r}", argv, False if a.smoke else "inner", a.smoke))
                    if os.path.exists(out):
                        os.remove(out)
        run_phase("truth", jobs, 8 if a.smoke else "gated")
    if "trace" in phases:
        jobs = []
        for prog in progs:
            for v in prog["variants"]:
                d = os.path.join(res, prog["name"], v)
                argv = [py, prog["file"], "--variant", v, "--mode", "trace", "--out", d]
                jobs.append(job("trace", prog, v, "trace", argv, False if a.smoke else "inner", a.smoke))
        run_phase("trace", jobs, 8 if a.smoke else "gated")
    if "record" in phases:
        if not cuprobe or not os.path.exists(cuprobe):
            print(f"record: no cuprobe at '{cuprobe}': skipped", flush=True)
        else:
            jobs = []
            for prog in progs:
                for v in prog["variants"]:
                    graphs = prog.get("graphs", ["node"])
                    wanted = a.record_modes.split(",")
                    modes = ([(g, []) for g in graphs] if "graphs" in wanted else []) + \
                        ([(graphs[0], ["--api"])] if "api" in wanted else [])
                    for g, extra in modes:
                        name = "record_api" if extra else "record" if g == "node" else f"record_{g}"
                        db = os.path.join(res, prog["name"], v, name + ".db")
                        argv = [cuprobe, "record", "-f", "-o", db, "--graphs", g, *extra, "--",
                                py, prog["file"], "--variant", v, "--mode", "plain"]
                        jobs.append(job("record", prog, v, name, argv, False if a.smoke else "outer", a.smoke))
            run_phase("record", jobs, 8 if a.smoke else 2)  # outer lock: one records, one waits
            for prog in progs:  # gzip the run files
                for v in prog["variants"]:
                    d = os.path.join(res, prog["name"], v)
                    for f in os.listdir(d):
                        if f.endswith(".db"):
                            with open(os.path.join(d, f), "rb") as s, gzip.open(os.path.join(d, f + ".gz"), "wb") as o:
                                shutil.copyfileobj(s, o)
                            os.remove(os.path.join(d, f))

    # truth.json: per program and variant, the per-process medians, their median and spread
    truth = {"schema": "cuprobe.zoo_truth/1", "env": env_info,
             "method": "CUDA events at the start of every step after warm-up, a synchronize after each step, "
                       "no profiler; one median per process; processes serialised by a file lock",
             "programs": {}}
    for prog in progs:
        variants = {v: variant_truth(os.path.join(res, prog["name"], v)) for v in prog["variants"]}
        truth["programs"][prog["name"]] = program_truth(prog["family"], {v: t for v, t in variants.items() if t})
    json.dump(truth, open(os.path.join(a.out, "truth.json"), "w"), indent=1)
    json.dump(events, open(os.path.join(a.out, "jobs.json"), "w"), indent=0)
    print(f"{'program':28s} {'bug ms':>9s} {'fixed ms':>9s} {'saving':>7s} spread(b/f)")
    for name, e in truth["programs"].items():
        vs = e["variants"]
        b, f = vs.get("bug", {}), vs.get("fixed", {})
        print(f"{name:28s} {b.get('median_ms', float('nan')):9.3f} {f.get('median_ms', float('nan')):9.3f} "
              f"{e.get('true_saving_pct', float('nan')):6.1f}% {b.get('spread_pct', '-')}/{f.get('spread_pct', '-')}")
    bad = [e for e in events if e["skipped"] or e["rc"] != 0]
    print(f"done in {time.time() - start:.0f}s; {len(bad)} jobs failed or skipped", flush=True)


if __name__ == "__main__":
    main()
