#!/usr/bin/env python3
"""Fails when a source file includes from a layer it may not use.

The allowed edges are written once, in the top-level CMakeLists.txt
(cuprobe_layer(... DEPENDS ...)); CMake writes them to build/<preset>/layers.txt
as "layer: dep dep ...". A layer is the first folder under src/. A file may
include from its own layer and from the layers its layer depends on,
transitively. Usage: check_layers.py SRC_DIR LAYERS_TXT
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_edges(path):
    edges = {}
    with open(path) as f:
        for line in f:
            if ":" not in line:
                continue
            name, deps = line.split(":", 1)
            edges[name.strip()] = deps.split()
    return edges


def closure(edges, layer):
    seen, todo = set(), [layer]
    while todo:
        for dep in edges.get(todo.pop(), []):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen | {layer}


def violations(src_dir, edges):
    found = []
    for root, _, files in os.walk(src_dir):
        for name in sorted(files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src_dir)
            layer = rel.split(os.sep)[0]
            if layer not in edges:
                if os.sep in rel:
                    found.append(f"{rel}: folder '{layer}' is not a declared layer")
                continue
            allowed = closure(edges, layer)
            with open(path, errors="replace") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                target = m.group(1).split("/")[0]
                if "/" in m.group(1) and target in edges and target not in allowed:
                    line = text.count("\n", 0, m.start()) + 1
                    found.append(f"{rel}:{line}: layer '{layer}' may not include \"{m.group(1)}\" "
                                 f"(allowed: {' '.join(sorted(allowed))})")
    return found


def main():
    if len(sys.argv) != 3:
        print("usage: check_layers.py SRC_DIR LAYERS_TXT", file=sys.stderr)
        return 2
    found = violations(sys.argv[1], read_edges(sys.argv[2]))
    for v in found:
        print(v)
    print(f"layers: {len(found)} forbidden include(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
