#!/usr/bin/env python3
"""clang-tidy (.clang-tidy) over the src/ files a build's compile database
holds, re-checking only what changed since a clean check.

    clang_tidy_cached.py BUILD_DIR [--jobs N] [--cache DIR] [--extra-arg ARG]... [--only PATH]...

--only keeps the files under the given paths (src/import, src/cli/report.cpp).

A file that passed is remembered in the cache directory (default
${XDG_CACHE_HOME:-~/.cache}/cuprobe/clang-tidy) under a hash of everything its
result depends on: the contents of the file and of every header it includes
(the build's dependency file, or the compiler's -M list when there is none), its
compile command, .clang-tidy, the clang-tidy version and this script's arguments.
Paths under the clone are hashed relative to it, so that another clone of the
same commit hits the cache. A file with findings is never remembered; a changed
header changes the hash of every file that includes it.

Exits 1, after printing the findings, when any file fails.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
FORMAT = "cuprobe-tidy-cache/1"


def file_digest(path, memo):
    if path not in memo:
        h = hashlib.sha256()
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError as e:  # a header gone since the build: the hash says so, and the file is checked
            h.update(f"unreadable: {e.strerror}".encode())
        memo[path] = h.hexdigest()
    return memo[path]


def relative(path):
    """Paths under the clone, relative to it (another folder, same hash)."""
    real = os.path.realpath(path)
    return os.path.relpath(real, ROOT) if real.startswith(ROOT + os.sep) else real


def parse_depfile(text):
    """The prerequisites of a make-style dependency file (`obj: a.h b.h \\`; a space in a name is `\\ `)."""
    _, _, deps = text.replace("\\\n", " ").partition(": ")
    return [d.replace("\\ ", " ") for d in re.split(r"(?<!\\)\s+", deps) if d]


def dependencies(entry):
    """Every file the translation unit reads: the build's depfile when it is at
    least as new as the source, else the compiler's -M."""
    directory, source = entry["directory"], entry["file"]
    args = entry.get("arguments") or shlex.split(entry["command"])
    obj = args[args.index("-o") + 1] if "-o" in args else None
    if obj:
        depfile = os.path.join(directory, obj + ".d")
        try:
            if os.path.getmtime(depfile) >= os.path.getmtime(source):
                with open(depfile) as f:
                    deps = parse_depfile(f.read())
                return [os.path.normpath(os.path.join(directory, d)) for d in deps]
        except OSError:
            pass
    cmd = []
    skip = False
    for a in args:  # the compile command without its output
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a not in ("-c", "-MD", "-MMD"):
            cmd.append(a)
    out = subprocess.run(cmd + ["-M", "-MF", "-"], cwd=directory, capture_output=True, text=True)
    if out.returncode != 0:
        return None  # cannot list them: no key, the file is checked
    return [os.path.normpath(os.path.join(directory, d)) for d in parse_depfile(out.stdout)]


def cache_key(entry, common, memo):
    deps = dependencies(entry)
    if deps is None:
        return None
    h = hashlib.sha256(common)
    command = entry.get("command") or shlex.join(entry["arguments"])
    h.update(command.replace(ROOT, "<root>").encode())
    h.update(relative(entry["file"]).encode())
    for rel, d in sorted((relative(d), d) for d in set(deps) | {os.path.normpath(entry["file"])}):
        h.update(f"\n{rel} {file_digest(d, memo)}".encode())
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--cache", default=os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                                   "cuprobe", "clang-tidy"))
    p.add_argument("--extra-arg", action="append", default=[])
    p.add_argument("--only", action="append", default=[])
    a = p.parse_args()

    with open(os.path.join(a.build, "compile_commands.json")) as f:
        db = json.load(f)
    src = os.path.join(ROOT, "src") + os.sep
    entries = {}
    only = [os.path.realpath(o) for o in a.only]
    for e in db:  # the src/ files this build compiles, each once
        path = os.path.realpath(os.path.join(e["directory"], e["file"]))
        if path.startswith(src) and (not only or any(path == o or path.startswith(o + os.sep) for o in only)):
            entries.setdefault(path, dict(e, file=path))

    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True, check=True).stdout
    with open(os.path.join(ROOT, ".clang-tidy"), "rb") as f:
        config = f.read()
    common = "\n".join([FORMAT, version, " ".join(a.extra_arg)]).encode() + config
    os.makedirs(a.cache, exist_ok=True)

    start = time.monotonic()
    memo = {}
    keys = {path: cache_key(e, common, memo) for path, e in sorted(entries.items())}
    todo = [path for path, key in keys.items() if not key or not os.path.exists(os.path.join(a.cache, key))]
    for path, key in keys.items():  # a hit stays young (the pruning below drops what no run used for 30 days)
        if key and path not in todo:
            os.utime(os.path.join(a.cache, key))

    def check(path):
        cmd = ["clang-tidy", "-p", a.build, "--quiet"] + [f"--extra-arg={x}" for x in a.extra_arg] + [path]
        r = subprocess.run(cmd, capture_output=True, text=True)
        return path, r.returncode, r.stdout + r.stderr

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for path, rc, out in pool.map(check, todo):
            if rc == 0:
                if keys[path]:
                    open(os.path.join(a.cache, keys[path]), "w").close()
            else:
                failed.append((path, out))

    now = time.time()
    for name in os.listdir(a.cache):
        full = os.path.join(a.cache, name)
        if now - os.path.getmtime(full) > 30 * 86400:
            os.remove(full)

    elapsed = time.monotonic() - start
    summary = (f"{len(entries)} files in {' '.join(a.only) or 'src/'}, {len(entries) - len(todo)} unchanged since a clean check "
               f"({a.cache}), {len(todo)} checked, in {elapsed:.0f} s")
    if failed:
        lines = set()
        for path, out in failed:
            found = [l for l in out.splitlines() if re.search(r"warning:|error:|note: [0-9]+ lines", l)]
            lines.update(found or [f"{path}: clang-tidy failed: {out.strip()}"])
        print("\n".join(sorted(lines)), file=sys.stderr)
        print(f"clang-tidy: {len(failed)} file(s) fail .clang-tidy; {summary}", file=sys.stderr)
        return 1
    print(f"clang-tidy: {summary}; all pass .clang-tidy", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
