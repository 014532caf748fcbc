#!/usr/bin/env python3
"""The README's example outputs are the output of the commands they show.

Every fenced-block line `$ cuprobe VERB ...` that can run on this machine (no GPU, no real model
server, every input a file of the repository) is run from the repository root (stdout only) and
compared with the lines the README shows under it (up to the next `$ ` line or the block's end):

  analyze, diff   inputs are files in the repository; compared line for line.
  report          inputs are files in the repository; run with its `-o FILE` written to a
                  temporary directory instead (not into the repository); it must exit 0, write
                  FILE and print what the README shows under it (nothing).
  bench           the URL is http://127.0.0.1:PORT and the README's prose names the server as
                  `.../bench/load_stream_server_bench --port PORT ARGS` (the test suite's streaming
                  server): a server of our own is started with ARGS on a free port (never PORT, so
                  two runs of the test at once do not meet), the command is run against that port,
                  the printed `127.0.0.1:<port>` is written back as `127.0.0.1:PORT`, and the
                  server is stopped (SIGTERM; it also gets SIGTERM if this script dies).

A line `...` stands for omitted lines: the README may show the output's tail from an anchor line on
(the line after `...`), never lines the command does not print.

Masking (bench only; analyze, diff and report are deterministic and compared exactly). A bench run
against the test server is deterministic in its counts but not in its timings, so:
  - the lines before the output's first empty line (the `cuprobe bench URL  model M` line and the
    `load:`, `requests:` and `connections:` lines: prompts, conversations, /tokenize calls,
    requests completed and failed, connections) are compared exactly;
  - every later line (the throughput table, goodput, the latency table, the server's metrics) is
    compared with each number (a run of digits, with its decimal part) replaced by `#` and each run
    of spaces by one space (numbers of other widths move the columns). Its words, row and column
    labels, metric names and the number of lines and of figures on each line are compared exactly;
    its figures (durations, rates, latencies, steady-window counts, goodput counts, the server's
    gauges and counters) are not.
`update` rewrites a block only where the comparison (after masking) fails, and then with the whole
real output of this run, figures included.

  readme_examples.py check CUPROBE [README] [--server BIN] [--verbose]
        exit 1 and a diff for every block that drifted
  readme_examples.py update CUPROBE [README] [--server BIN] [--verbose]
        rewrite those blocks with what the commands print
  readme_examples.py list [README]
        every `$ ` line of the README: checked, or skipped and why

--server BIN: the streaming server (default: bench/load_stream_server_bench beside CUPROBE).
--verbose (or --list): also list every block, checked (and how) or skipped (and why).
The bench examples (tens of seconds, mostly waiting on the server) run beside the others. On
SIGTERM or SIGINT (ctest's timeout) the servers and running commands are stopped; if this script is
killed outright the servers get SIGTERM from the kernel (PR_SET_PDEATHSIG).

Commands that need a GPU (sample, record, devices, exporter), a real model server, or files outside
the repository are not run: their blocks were captured on the machines docs/validation.md names;
`list` says which and why.
"""
import concurrent.futures
import ctypes
import difflib
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

ELLIPSIS = "..."
CHILDREN = set()  # the cuprobe processes running now, killed with the servers on SIGTERM/SIGINT
NUMBER = re.compile(r"\d+(?:\.\d+)?")
SERVER_IN_PROSE = re.compile(r"load_stream_server_bench --port (\d+)((?: --[a-z-]+ \d+)*)")
LOCAL_URL = re.compile(r"^http://127\.0\.0\.1:(\d+)(/.*)?$")
GPU_VERBS = {"sample": "needs a GPU (CUPTI counters); captured on the H200",
             "record": "needs a GPU (CUPTI injection); captured on the H200",
             "devices": "needs a GPU; captured on the H200",
             "exporter": "needs a GPU; its output below was captured on the H200"}


class Example:
    def __init__(self, command_line, first, last):
        self.command_line = command_line  # without the leading "$ "
        self.first, self.last = first, last  # README line range [first, last) of the shown output
        self.kind, self.reason = None, None  # what classify() found: "run" or "skip", and why

    def args(self):
        return shlex.split(self.command_line.split("  #")[0])

    def verb(self):
        args = self.args()
        return args[1] if len(args) > 1 and args[0] == "cuprobe" else None


def parse_examples(lines):
    """Each `$ ...` line inside a fenced block, with the output lines under it."""
    examples, in_block, current = [], False, None
    for i, line in enumerate(lines):
        if line.startswith("```"):
            if current:
                current.last = i
                examples.append(current)
                current = None
            in_block = not in_block
            continue
        if in_block and line.startswith("$ "):
            if current:
                current.last = i
                examples.append(current)
            current = Example(line[2:], i + 1, None)
    return examples


def input_paths(args):
    """The arguments that name files (a `/` or a `.` in them), leaving out option values that are
    URLs, `-o`'s output and goodput/SLO strings."""
    paths, skip_next = [], False
    for a in args:
        if skip_next:
            skip_next = False
            continue
        if a in ("-o", "--output"):
            skip_next = True
            continue
        if a.startswith("-") or "://" in a or " " in a or ":" in a:
            continue
        if "/" in a or "." in a:
            paths.append(a)
    return paths


def classify(example, root, servers):
    """Sets example.kind ("run" or "skip") and example.reason."""
    args, verb = example.args(), example.verb()
    if verb is None:
        what = args[0] if args else "?"
        reasons = {"bash": "bench/analyze_speed.sh times the 346 MiB trace in ../shared/traces "
                           "(minutes, machine-dependent timings)",
                   "curl": "reads the exporter above (needs a GPU)"}
        example.kind, example.reason = "skip", reasons.get(what, f"not a cuprobe command ({what})")
        return
    if verb in GPU_VERBS:
        example.kind, example.reason = "skip", GPU_VERBS[verb]
        return
    if verb == "bench":
        url = next((a for a in args[2:] if "://" in a), "")
        m = LOCAL_URL.match(url)
        if not m or m.group(1) not in servers:
            example.kind, example.reason = "skip", (
                f"{url or 'no URL'} is not the test server the README names "
                f"(`load_stream_server_bench --port P ...`)")
            return
        missing = [p for p in input_paths(args[2:]) if not os.path.isfile(os.path.join(root, p))]
        if missing:
            example.kind, example.reason = "skip", f"inputs not in the repository: {', '.join(missing)}"
            return
        example.kind, example.reason = "run", f"against load_stream_server_bench{servers[m.group(1)]}, figures masked"
        return
    if verb not in ("analyze", "diff", "report"):
        example.kind, example.reason = "skip", f"verb {verb} is not run by this script"
        return
    if verb != "report" and example.last == example.first:
        example.kind, example.reason = "skip", "no output shown under it"
        return
    paths = input_paths(args[2:])
    missing = [p for p in paths if not os.path.isfile(os.path.join(root, p))]
    if not paths or missing:
        example.kind, example.reason = "skip", (
            f"inputs not in the repository: {', '.join(missing)}" if missing else "no input files")
        if any(p.startswith("/tmp/") for p in missing):
            example.reason += " (written by the `record` example above, which needs a GPU)"
        return
    example.kind, example.reason = "run", ("-o into a temporary directory" if verb == "report" else "exactly")


try:
    PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # looked up here, not in the forked child
except (OSError, AttributeError):
    PRCTL = None


def die_with_parent():
    """In the server's child process (forked from the main thread, before any other thread
    starts): SIGTERM when this script is killed, even by SIGKILL (PR_SET_PDEATHSIG)."""
    if PRCTL:
        PRCTL(1, signal.SIGTERM)


class Server:
    """load_stream_server_bench ARGS on a free port, for one bench example."""

    def __init__(self, binary, args):
        self.proc = subprocess.Popen([binary, "--port", "0"] + shlex.split(args), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     preexec_fn=die_with_parent)
        line = self.proc.stdout.readline().strip()
        if not line.isdigit():
            self.stop()
            raise SystemExit(f"readme: {binary} did not print its port (got {line!r})")
        self.port = line

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def run(example, cuprobe, root, server=None, readme_port=None):
    args = example.args()[1:]
    tmp = None
    if example.verb() == "report":
        tmp = tempfile.TemporaryDirectory(prefix="readme-report-")
        out = args.index("-o") + 1
        args[out] = os.path.join(tmp.name, os.path.basename(args[out]))
    if server:
        args = [a.replace(f"127.0.0.1:{readme_port}", f"127.0.0.1:{server.port}") for a in args]
    try:
        proc = subprocess.Popen([cuprobe] + args, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        CHILDREN.add(proc)
        try:
            stdout, stderr = proc.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise SystemExit(f"readme: `{example.command_line}` ran past 300 s")
        finally:
            CHILDREN.discard(proc)
        result = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
        if result.returncode not in (0, 4):
            raise SystemExit(f"readme: `{example.command_line}` exited {result.returncode}: "
                             f"{result.stderr.strip().splitlines()[-1:]}")
        if tmp and not os.path.isfile(args[args.index("-o") + 1]):
            raise SystemExit(f"readme: `{example.command_line}` wrote no {example.args()[example.args().index('-o') + 1]}")
    finally:
        if tmp:
            tmp.cleanup()
    out = result.stdout
    if server:
        out = out.replace(f"127.0.0.1:{server.port}", f"127.0.0.1:{readme_port}")
    out = out.rstrip("\n")
    return out.split("\n") if out else []


def masked(verb, lines):
    """The lines as compared: bench's figures after its first empty line masked (see the docstring)."""
    if verb != "bench":
        return lines
    result, exact = [], True
    for line in lines:
        if exact and line.strip() == "":
            exact = False
        result.append(line if exact else " ".join(NUMBER.sub("#", line).split()))
    return result


def expected_from(shown, printed):
    """What the README should show: all the printed output, or, where the README starts with `...`,
    the printed output from its anchor line (the line after `...`) to the end."""
    if ELLIPSIS in shown[1:] or (shown and shown[0] == ELLIPSIS and len(shown) < 2):
        raise SystemExit("readme: '...' may only open a block, followed by the line it starts from")
    if not shown or shown[0] != ELLIPSIS:
        return printed
    anchor = shown[1].strip()[:24]
    found = next((j for j, line in enumerate(printed) if line.strip().startswith(anchor)), None)
    return None if found is None else [ELLIPSIS] + printed[found:]


def main(argv):
    verbose = "--verbose" in argv or "--list" in argv
    server_bin = None
    rest = []
    i = 1
    while i < len(argv):
        if argv[i] == "--server" and i + 1 < len(argv):
            server_bin, i = argv[i + 1], i + 2
            continue
        if argv[i] not in ("--verbose", "--list"):
            rest.append(argv[i])
        i += 1
    if rest and rest[0] == "list":
        mode, cuprobe, readme_arg, verbose = "list", None, rest[1] if len(rest) > 1 else None, True
    elif len(rest) >= 2 and rest[0] in ("check", "update"):
        mode, cuprobe, readme_arg = rest[0], os.path.abspath(rest[1]), rest[2] if len(rest) > 2 else None
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    readme = readme_arg or os.path.join(root, "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    servers = {m.group(1): m.group(2) for m in SERVER_IN_PROSE.finditer(text)}  # README port -> args
    examples = parse_examples(lines)
    for example in examples:
        classify(example, root, servers)
    if verbose:
        for example in examples:
            status = "checked" if example.kind == "run" else "skipped"
            print(f"README line {example.first}: {status} ({example.reason}): $ {example.command_line}",
                  file=sys.stderr)
    if mode == "list":
        return 0
    if server_bin is None:
        server_bin = os.path.join(os.path.dirname(cuprobe), "bench", "load_stream_server_bench")
    to_run = [e for e in examples if e.kind == "run"]

    started, outputs = [], {}

    def stop_all(signum, _frame):
        """SIGTERM (ctest's timeout) or SIGINT: no server or cuprobe run is left behind."""
        for proc in list(CHILDREN):
            proc.kill()
        for server in started:
            server.stop()
        print(f"readme: stopped by signal {signum}; servers and commands stopped", file=sys.stderr)
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop_all)
    signal.signal(signal.SIGINT, stop_all)
    try:
        jobs = []
        # Bench examples take tens of seconds, mostly waiting: they start first and run beside the rest.
        for example in sorted(to_run, key=lambda e: e.verb() != "bench"):
            server, readme_port = None, None
            if example.verb() == "bench":
                if not os.access(server_bin, os.X_OK):
                    raise SystemExit(f"readme: no {server_bin} (cmake --build --preset release "
                                     f"--target load_stream_server_bench), or pass --server BIN")
                readme_port = LOCAL_URL.match(next(a for a in example.args() if "://" in a)).group(1)
                server = Server(server_bin, servers[readme_port])  # started here, in the main thread
                started.append(server)
            jobs.append((example, server, readme_port))
        t0 = time.monotonic()
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
        futures = {pool.submit(run, e, cuprobe, root, s, p): e for e, s, p in jobs}
        for future, example in futures.items():
            outputs[id(example)] = future.result()  # a failure ends the run, the finally cleans up
    finally:
        for proc in list(CHILDREN):  # left running only when another example failed
            proc.kill()
        for server in started:
            server.stop()

    drifted = 0
    for example in reversed(to_run):  # from the end, so earlier ranges stay valid
        shown = lines[example.first:example.last]
        expected = expected_from(shown, outputs[id(example)])
        if expected is not None and masked(example.verb(), expected) == masked(example.verb(), shown):
            continue
        drifted += 1
        if expected is None:
            print(f"README line {example.first}: `{example.command_line}`: the line after '...' "
                  f"is no longer printed; choose what to show by hand")
            continue
        if mode == "update":
            lines[example.first:example.last] = expected
        else:
            print(f"README line {example.first}: `{example.command_line}` prints something else"
                  f"{' (figures masked)' if example.verb() == 'bench' else ''}:")
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                masked(example.verb(), shown), masked(example.verb(), expected), "README", "printed",
                lineterm="", n=1))
    if mode == "update" and drifted:
        with open(readme, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    skipped = len(examples) - len(to_run)
    print(f"readme: {len(to_run)} examples run ({time.monotonic() - t0:.1f} s), {skipped} skipped"
          f"{'' if verbose else ' (--verbose says which and why)'}, "
          f"{drifted} {'updated' if mode == 'update' else 'drifted'}", file=sys.stderr)
    if mode == "check" and drifted:
        print("run: python3 scripts/readme_examples.py update build/release/cuprobe", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
