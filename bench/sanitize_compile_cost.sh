#!/usr/bin/env bash
# What one ASan+UBSan build of the tree costs under g++ 12 at -O2 -g1 (the sanitize
# preset before) and at -O1 -g1 (the preset now), and under clang 14 for reference
# (the preset stays on g++: the injected library needs UBSan's runtime under clang),
# beside the release build: CPU seconds
# (user + sys) to compile a few representative files of each kind — a test
# (gtest + nlohmann/json), a report renderer, a trace reader — with the flags
# each build uses. The sum is what decides CI's time on 2 cores.
#   bash bench/sanitize_compile_cost.sh   (after `cmake --preset release`)
set -euo pipefail
cd "$(dirname "$0")/.."
db=build/release/compile_commands.json
[[ -f $db ]] || { echo "missing $db (cmake --preset release)" >&2; exit 2; }
files=(tests/cli/one_truth_test.cpp src/report/analyze_json.cpp src/import/kineto_json/kineto_importer.cpp)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

include_flags() {  # FILE: the -I/-isystem/-D flags the release build gives it
  python3 - "$db" "$1" << 'EOF'
import json, os, shlex, sys
want = os.path.realpath(sys.argv[2])
for e in json.load(open(sys.argv[1])):
    if os.path.realpath(os.path.join(e["directory"], e["file"])) == want:
        args = e.get("arguments") or shlex.split(e["command"])
        keep, take = [], False
        for a in args:
            if take: keep.append(a); take = False
            elif a in ("-I", "-isystem", "-D"): keep.append(a); take = True
            elif a.startswith(("-I", "-isystem", "-D", "-std=")): keep.append(a)
        print(shlex.join(keep)); break
EOF
}
cpu() {  # prints the CPU seconds (user + sys) the command used
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_utime + r.ru_stime:.1f}")' "$@"
}
sanitize=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
printf '%-36s %10s %14s %14s %14s\n' file "g++ -O3" "g++ -O2 -g1" "g++ -O1 -g1" "clang -O1 -g1"
printf '%-36s %10s %14s %14s %14s\n' "" release "(before)" "(now)" "(reference)"
total_release=0 total_before=0 total_now=0 total_clang=0
add() { awk -v a="$1" -v b="$2" 'BEGIN {print a + b}'; }
for f in "${files[@]}"; do
  read -r -a flags <<< "$(include_flags "$f")"
  r=$(cpu g++ "${flags[@]}" -O3 -DNDEBUG -c "$f" -o "$work/o")
  b=$(cpu g++ "${flags[@]}" -O2 -g1 -DNDEBUG "${sanitize[@]}" -c "$f" -o "$work/o")
  n=$(cpu g++ "${flags[@]}" -O1 -g1 -DNDEBUG "${sanitize[@]}" -c "$f" -o "$work/o")
  c=$(cpu clang++ "${flags[@]}" -O1 -g1 -DNDEBUG "${sanitize[@]}" -c "$f" -o "$work/o")
  printf '%-36s %9ss %13ss %13ss %13ss\n' "$f" "$r" "$b" "$n" "$c"
  total_release=$(add "$total_release" "$r") total_before=$(add "$total_before" "$b")
  total_now=$(add "$total_now" "$n") total_clang=$(add "$total_clang" "$c")
done
printf '%-36s %9ss %13ss %13ss %13ss\n' total "$total_release" "$total_before" "$total_now" "$total_clang"
awk -v b="$total_before" -v n="$total_now" 'BEGIN {printf "the sanitize build at -O1 -g1 takes %.2fx the CPU time of -O2 -g1\n", n / b}'
