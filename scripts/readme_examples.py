#!/usr/bin/env python3
"""The README's example outputs are the output of the commands they show.

Every fenced block line `$ cuprobe analyze ...` or `$ cuprobe diff ...` whose inputs are files in
the repository is run (from the repository root, stdout only) and compared with the lines the
README shows under it. A line `...` stands for omitted lines: the README may show the output's
tail from an anchor line on (the line after `...`), never lines the command does not print.

  readme_examples.py check CUPROBE [README]    exit 1 and a diff for every block that drifted
  readme_examples.py update CUPROBE [README]   rewrite those blocks with what the commands print

Commands that need a GPU, a server or files outside the repository (sample, record, bench...)
are not run: their blocks were captured on the machines docs/validation.md names.
"""
import difflib
import os
import shlex
import subprocess
import sys

RUNNABLE_VERBS = ("analyze", "diff")
ELLIPSIS = "..."


class Example:
    def __init__(self, command_line, first, last):
        self.command_line = command_line  # without the leading "$ "
        self.first, self.last = first, last  # README line range [first, last) of the shown output

    def args(self):
        return shlex.split(self.command_line.split("  #")[0])


def parse_examples(lines):
    """Each `$ cuprobe VERB ...` line inside a fenced block, with the output lines under it."""
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


def runnable(example, root):
    args = example.args()
    if len(args) < 3 or args[0] != "cuprobe" or args[1] not in RUNNABLE_VERBS:
        return False
    if example.last == example.first:  # nothing shown under it
        return False
    paths = [a for a in args[2:] if not a.startswith("-") and ("/" in a or "." in a)]
    return bool(paths) and all(os.path.isfile(os.path.join(root, p)) for p in paths)


def run(example, cuprobe, root):
    result = subprocess.run([cuprobe] + example.args()[1:], cwd=root, capture_output=True, text=True,
                            timeout=300)
    if result.returncode not in (0, 4):
        raise SystemExit(f"readme: `{example.command_line}` exited {result.returncode}: "
                         f"{result.stderr.strip().splitlines()[-1:]}")
    return result.stdout.rstrip("\n").split("\n")


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
    if len(argv) < 3 or argv[1] not in ("check", "update"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mode, cuprobe = argv[1], os.path.abspath(argv[2])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    readme = argv[3] if len(argv) > 3 else os.path.join(root, "README.md")
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    drifted, checked = 0, 0
    for example in reversed(parse_examples(lines)):  # from the end, so earlier ranges stay valid
        if not runnable(example, root):
            continue
        checked += 1
        shown = lines[example.first:example.last]
        expected = expected_from(shown, run(example, cuprobe, root))
        if expected == shown:
            continue
        drifted += 1
        if expected is None:
            print(f"README line {example.first}: `{example.command_line}`: the line after '...' "
                  f"is no longer printed; choose what to show by hand")
            continue
        if mode == "update":
            lines[example.first:example.last] = expected
        else:
            print(f"README line {example.first}: `{example.command_line}` prints something else:")
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(shown, expected, "README", "printed",
                                                                        lineterm="", n=1))
    if mode == "update" and drifted:
        with open(readme, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    print(f"readme: {checked} examples run, {drifted} {'updated' if mode == 'update' else 'drifted'}",
          file=sys.stderr)
    if mode == "check" and drifted:
        print("run: python3 scripts/readme_examples.py update build/release/cuprobe", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
