#!/usr/bin/env python3
"""Checks a Chrome trace written by `cuprobe export --chrome` the way a viewer will read it.

Usage: chrome_trace_check.py TRACE.json [--ranks N]
       chrome_trace_check.py --export CUPROBE INPUT... [--ranks N]   (exports INPUT... merged first)

1. The Trace Event Format rules Perfetto's JSON importer and chrome://tracing rely on
   (Perfetto's trace_processor is not packaged for Debian nor installable here, so its rules
   are checked directly): a top-level object with a "traceEvents" array; complete events
   ('X') with a string name, numeric ts >= 0 and dur >= 0, integer pid and tid; counter
   events ('C') with numeric args; metadata events ('M') of the four kinds used, naming
   every process and every thread that holds a slice; with --ranks N, N processes.
   Slices on one thread that overlap without nesting are counted (Perfetto draws them
   but flags them in its import stats): reported, not failed.
2. Chromium's own JSON.parse, in headless Chromium, over the file's bytes: the parsed
   traceEvents length must equal Python's. Skipped (said so) without chromium on PATH.
Exit 1 on any failed check.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

METADATA = {"process_name", "thread_name", "process_sort_index", "thread_sort_index"}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def schema(doc, ranks):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no top-level traceEvents array")
    names = {}
    processes, threads_named, threads_used = set(), set(), set()
    slices = {}
    counts = {"X": 0, "C": 0, "M": 0}
    for i, e in enumerate(doc["traceEvents"]):
        ph = e.get("ph")
        if ph not in counts:
            fail(f"event {i}: phase {ph!r}")
        counts[ph] += 1
        if not isinstance(e.get("pid"), int):
            fail(f"event {i}: pid {e.get('pid')!r}")
        if ph == "M":
            if e.get("name") not in METADATA:
                fail(f"event {i}: metadata {e.get('name')!r}")
            args = e.get("args", {})
            if e["name"].endswith("_name"):
                if not isinstance(args.get("name"), str):
                    fail(f"event {i}: no name")
                if e["name"] == "process_name":
                    processes.add(e["pid"])
                    names[e["pid"]] = args["name"]
                else:
                    threads_named.add((e["pid"], e.get("tid")))
            elif not isinstance(args.get("sort_index"), int):
                fail(f"event {i}: no sort_index")
            continue
        if not isinstance(e.get("name"), str) or not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
            fail(f"event {i}: name/ts {e.get('name')!r} {e.get('ts')!r}")
        if ph == "C":
            if not e.get("args") or not all(isinstance(v, (int, float)) for v in e["args"].values()):
                fail(f"event {i}: counter args {e.get('args')!r}")
            continue
        if not isinstance(e.get("tid"), int) or not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
            fail(f"event {i}: tid/dur {e.get('tid')!r} {e.get('dur')!r}")
        key = (e["pid"], e["tid"])
        threads_used.add(key)
        slices.setdefault(key, []).append((e["ts"], e["ts"] + e["dur"]))
    unnamed = threads_used - threads_named
    if unnamed and ranks:
        fail(f"threads holding slices without a thread_name: {sorted(unnamed)[:5]}")
    pids = {p for p, _ in threads_used}
    if ranks and pids - processes:
        fail(f"processes without a process_name: {sorted(pids - processes)}")
    if ranks and len(pids) != ranks:
        fail(f"{len(pids)} processes hold slices, expected {ranks}")
    crossing = 0
    for spans in slices.values():
        spans.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end in spans:
            while stack and stack[-1] <= start:
                stack.pop()
            if stack and end > stack[-1]:
                crossing += 1
                continue
            stack.append(end)
    print(f"schema: {counts['X']} slices, {counts['C']} counter values, {counts['M']} metadata events, "
          f"{len(pids)} processes, {len(threads_used)} threads; {crossing} slices overlap a sibling without nesting")
    for pid in sorted(names):
        print(f"  pid {pid}: {names[pid]}")
    return len(doc["traceEvents"])


def chromium_parse(path, expected):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium: not installed, JSON.parse check skipped (scripts/setup.sh installs it)")
        return
    with open(path, "rb") as f:
        data = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "load.html")
        with open(page, "w") as out:
            # The file's bytes as a JS string (json.dumps of the text), parsed by the browser's JSON.parse.
            out.write("<html><body><pre id=r>not run</pre><script>\nvar text = ")
            out.write(json.dumps(data.decode("utf-8")))
            out.write(";\ntry { var t = JSON.parse(text); document.getElementById('r').textContent = "
                      "'events=' + t.traceEvents.length; } catch (e) { document.getElementById('r').textContent = "
                      "'error=' + e; }\n</script></body></html>")
        r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp}/profile",
                            "--dump-dom", "file://" + page], capture_output=True, text=True, timeout=120)
        start = r.stdout.find("<pre id=\"r\">")
        result = r.stdout[start + 12:r.stdout.find("</pre>", start)] if start >= 0 else r.stdout[-300:]
        if result != f"events={expected}":
            fail(f"chromium JSON.parse: {result}")
        print(f"chromium {subprocess.run([chromium, '--version'], capture_output=True, text=True).stdout.strip()}: "
              f"JSON.parse read {expected} events")


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    ranks = 0
    if "--ranks" in args:
        ranks = int(args[args.index("--ranks") + 1])
        del args[args.index("--ranks"):args.index("--ranks") + 2]
    with tempfile.TemporaryDirectory() as tmp:
        path = args[0]
        if args[0] == "--export":
            path = os.path.join(tmp, "merged.json")
            subprocess.run([args[1], "export", "--chrome", *args[2:], "-o", path], check=True)
        with open(path) as f:
            doc = json.load(f)
        n = schema(doc, ranks)
        chromium_parse(path, n)


if __name__ == "__main__":
    main()
