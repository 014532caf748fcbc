#!/usr/bin/env python3
"""zoo_collect.py DEST TREE [TREE...]: gather what run.sh wrote on the GPU host (one or
more output folders, each holding results/<program>/<variant>/...) into the layout the
scorer reads:

  DEST/traces/<program>/<variant>/{shapes,noshapes,stack}.json.gz, record.db.gz,
                                  record_whole.db.gz, record_api.db.gz (where recorded)
  DEST/truth.json   per program: each variant's per-process medians, their median and
                    spread, the true saving; all variants of a program come from the
                    same TREE (the last one that has truth for it), named in "source"

A later TREE overrides an earlier one, file by file for traces and run files, program
by program for truth. Prints what each program has."""
import json
import os
import shutil
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ("shapes.json.gz", "noshapes.json.gz", "stack.json.gz", "record.db.gz", "record_whole.db.gz",
         "record_api.db.gz")


def variant_truth(d):
    """One variant's truth from the truth_N.json files in folder d (one line per process):
    the process medians, their median and spread; None when there are none."""
    meds, extra = [], {}
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.startswith("truth_") and f.endswith(".json"):
            for line in open(os.path.join(d, f)):
                rec = json.loads(line)
                meds.append(rec["median_ms"])
                extra = {k: rec[k] for k in ("fix_used", "context_len") if k in rec}
    if not meds:
        return None
    m = statistics.median(meds)
    return {"process_median_ms": meds, "median_ms": round(m, 4),
            "spread_pct": round(100 * (max(meds) - min(meds)) / m, 1), **extra}


def program_truth(family, variants):
    """A program's entry: its variants and, with a bug and a fix, the true saving."""
    entry = {"family": family, "variants": variants}
    if "bug" in variants and "fixed" in variants:
        b, f = variants["bug"]["median_ms"], variants["fixed"]["median_ms"]
        entry["true_saving_pct"] = round(100 * (b - f) / b, 1)
    return entry


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: zoo_collect.py DEST TREE [TREE...]")
    dest, trees = sys.argv[1], sys.argv[2:]
    progs = json.load(open(os.path.join(HERE, "programs.json")))["programs"]
    truth = {"schema": "cuprobe.zoo_truth/1",
             "method": "CUDA events at the start of every step after warm-up (>= 5 steps and 0.2 s), a "
                       "synchronize after each step, no profiler; one median over >= 30 steps (about 0.5 s) per "
                       "process; >= 3 processes per variant, GPU phases serialised by a file lock while the "
                       "other processes sleep on it",
             "programs": {}, "sources": {}}
    have = {}
    for tree in trees:
        env_path = os.path.join(tree, "env.json")
        if os.path.exists(env_path):
            truth["sources"][tree] = json.load(open(env_path))
    for p in progs:
        name = p["name"]
        entry = None
        for tree in trees:
            variants = {}
            for v in p["variants"]:
                d = os.path.join(tree, "results", name, v)
                for k in KINDS:
                    src = os.path.join(d, k)
                    if os.path.exists(src):
                        out = os.path.join(dest, "traces", name, v)
                        os.makedirs(out, exist_ok=True)
                        shutil.copyfile(src, os.path.join(out, k))
                        have.setdefault((name, v), {})[k] = tree
                t = variant_truth(d)
                if t:
                    variants[v] = t
            if len(variants) == len(p["variants"]):
                entry = program_truth(p["family"], variants)
                entry["source"] = tree
        truth["programs"][name] = entry or {"family": p["family"], "variants": {}, "source": None}
    os.makedirs(dest, exist_ok=True)
    json.dump(truth, open(os.path.join(dest, "truth.json"), "w"), indent=1)
    shutil.copyfile(os.path.join(HERE, "programs.json"), os.path.join(dest, "programs.json"))
    for p in progs:
        for v in p["variants"]:
            got = have.get((p["name"], v), {})
            t = truth["programs"][p["name"]]["variants"].get(v, {})
            print(f"{p['name']:28s} {v:6s} truth {t.get('median_ms', '-')!s:>8s} ms  "
                  + " ".join(k.split(".")[0] for k in KINDS if k in got))


if __name__ == "__main__":
    main()
